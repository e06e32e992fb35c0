package dev.safedefaults.httpclient.timeouts;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import dev.safedefaults.httpclient.timeouts.ClientTimeouts.Source;
import dev.safedefaults.httpclient.timeouts.ClientTimeouts.Timeout;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.http.client.autoconfigure.HttpClientSettingsProperties;
import org.springframework.boot.http.client.autoconfigure.service.HttpServiceClientProperties;
import org.springframework.util.ClassUtils;
import org.springframework.web.service.registry.HttpServiceProxyRegistry;

/**
 * Reads the timeouts Boot gives its clients: Boot's settings as {@link TimeoutDecisions}
 * decided them (or the application's own {@code HttpClientSettings} bean), and each HTTP
 * service group's own {@code spring.http.serviceclient.<group>.*}, which Boot takes
 * before the global value. Reading changes nothing.
 */
final class BootClientTimeouts {

	static final String BOOT_CLIENTS = "Boot's HTTP clients";

	/**
	 * Boot's imperative clients, named so when WebClient's connector differs from them.
	 */
	static final String IMPERATIVE_CLIENTS = "Boot's RestClient and RestTemplate";

	/** The connector of Boot's {@code WebClient.Builder}. */
	static final String WEB_CLIENTS = "Boot's WebClient";

	private static final String CONNECTOR_CUSTOMIZER = "org.springframework.boot.http.client.autoconfigure.reactive.ClientHttpConnectorBuilderCustomizer";

	private static final String WEB_CLIENT_CUSTOMIZER = "org.springframework.boot.webclient.WebClientCustomizer";

	private static final String FACTORY_CUSTOMIZER = "org.springframework.boot.http.client.autoconfigure.ClientHttpRequestFactoryBuilderCustomizer";

	private static final String REST_CLIENT_CUSTOMIZER = "org.springframework.boot.restclient.RestClientCustomizer";

	private final ConfigurableListableBeanFactory beanFactory;

	private final TimeoutDecisions decisions;

	private final ObjectProvider<HttpClientSettings> settings;

	private final ObjectProvider<HttpServiceProxyRegistry> registry;

	private final ObjectProvider<HttpServiceClientProperties> groupProperties;

	BootClientTimeouts(ConfigurableListableBeanFactory beanFactory, TimeoutDecisions decisions,
			ObjectProvider<HttpClientSettings> settings, ObjectProvider<HttpServiceProxyRegistry> registry,
			ObjectProvider<HttpServiceClientProperties> groupProperties) {
		this.beanFactory = beanFactory;
		this.decisions = decisions;
		this.settings = settings;
		this.registry = registry;
		this.groupProperties = groupProperties;
	}

	/**
	 * The global settings, then one entry per HTTP service group.
	 * @return the timeouts of each
	 */
	List<ClientTimeouts> all() {
		HttpClientSettings global = this.settings.getIfAvailable(HttpClientSettings::defaults);
		ClientTimeouts clients = this.decisions.boots();
		if (clients == null) {
			Source source = (this.settings.getIfAvailable() != null) ? Source.SETTINGS_BEAN : Source.NONE;
			clients = new ClientTimeouts(BOOT_CLIENTS,
					notBoots("connect", global.connectTimeout(), HttpClientTimeoutsDefaults.BOOT_CONNECT, source),
					notBoots("read", global.readTimeout(), HttpClientTimeoutsDefaults.BOOT_READ, source));
		}
		List<ClientTimeouts> all = new ArrayList<>();
		ClientTimeouts webClients = webClients(clients);
		if (webClients != null && !sameTimeouts(clients, webClients)) {
			all.add(new ClientTimeouts(IMPERATIVE_CLIENTS, clients.connect(), clients.read()));
			all.add(webClients);
		}
		else {
			all.add(clients);
		}
		HttpServiceProxyRegistry groups = this.registry.getIfAvailable();
		HttpServiceClientProperties properties = this.groupProperties.getIfAvailable();
		if (groups != null) {
			for (String group : groups.getGroupNames().stream().sorted().toList()) {
				HttpClientSettingsProperties own = (properties != null) ? groupProperties(properties, group) : null;
				all.add(new ClientTimeouts("HTTP service group '" + group + "'",
						group(group, "connect", own, HttpClientSettingsProperties::getConnectTimeout,
								clients.connect()),
						group(group, "read", own, HttpClientSettingsProperties::getReadTimeout, clients.read())));
			}
		}
		return all;
	}

	/**
	 * The timeouts of the connector Boot's {@code WebClient.Builder} gives its clients:
	 * the same settings as the imperative clients, unless the application brought its own
	 * connector builder (the starter stands back for it, {@link TimeoutDecisions}) or its
	 * own {@code ClientHttpConnector} bean (Boot's settings never reach it).
	 * @param imperative what the imperative clients got
	 * @return the timeouts, or {@code null} when Boot builds no WebClient connector
	 */
	private @Nullable ClientTimeouts webClients(ClientTimeouts imperative) {
		if (!ReactiveConnectors.present(this.beanFactory.getBeanClassLoader())) {
			return null;
		}
		ReactiveConnectors.Connector connector = ReactiveConnectors.connector(this.beanFactory);
		if (connector == null) {
			return null;
		}
		if (connector.ownConnector()) {
			String origin = "as the application's ClientHttpConnector bean '" + connector.beanName()
					+ "' sets it (Boot's settings, and so safe-defaults' defaults, do not reach it)";
			return new ClientTimeouts(WEB_CLIENTS, ownConnector(imperative.connect(), origin),
					ownConnector(imperative.read(), origin));
		}
		ClientTimeouts decided = this.decisions.webClients();
		return (decided != null) ? decided : new ClientTimeouts(WEB_CLIENTS, imperative.connect(), imperative.read());
	}

	private static Timeout ownConnector(Timeout imperative, String origin) {
		return new Timeout(imperative.kind(), null, Source.OWN_FACTORY, imperative.property(), origin);
	}

	private static boolean sameTimeouts(ClientTimeouts one, ClientTimeouts other) {
		return one.connect().equals(other.connect()) && one.read().equals(other.read());
	}

	/**
	 * What runs after Boot applied the settings to WebClient's connector and may set
	 * other timeouts: the application's {@code ClientHttpConnectorBuilderCustomizer} and
	 * {@code WebClientCustomizer} beans (a customizer's code is not run to find out).
	 * @return one sentence per kind, none when there is none
	 */
	List<String> runAfterConnectorSettings() {
		List<String> after = new ArrayList<>();
		List<String> connectorCustomizers = applicationBeans(CONNECTOR_CUSTOMIZER);
		if (!connectorCustomizers.isEmpty()) {
			after.add("then the application's ClientHttpConnectorBuilderCustomizer beans ("
					+ String.join(", ", connectorCustomizers) + "), which may set their own");
		}
		List<String> webClientCustomizers = applicationBeans(WEB_CLIENT_CUSTOMIZER);
		if (!webClientCustomizers.isEmpty()) {
			after.add("then the application's WebClientCustomizer beans (" + String.join(", ", webClientCustomizers)
					+ "): a connector one of them gives WebClient.Builder keeps its own timeouts instead");
		}
		return after;
	}

	/**
	 * What runs after Boot applied the settings and may set other timeouts: the
	 * application's {@code ClientHttpRequestFactoryBuilderCustomizer} and
	 * {@code RestClientCustomizer} beans (a customizer's code is not run to find out).
	 * @return one sentence per kind, none when there is none
	 */
	List<String> runAfterSettings() {
		List<String> after = new ArrayList<>();
		List<String> factoryCustomizers = applicationBeans(FACTORY_CUSTOMIZER);
		if (!factoryCustomizers.isEmpty()) {
			after.add("then the application's ClientHttpRequestFactoryBuilderCustomizer beans ("
					+ String.join(", ", factoryCustomizers) + "), which may set their own");
		}
		List<String> restClientCustomizers = applicationBeans(REST_CLIENT_CUSTOMIZER);
		if (!restClientCustomizers.isEmpty()) {
			after.add("then the application's RestClientCustomizer beans (" + String.join(", ", restClientCustomizers)
					+ "): a request factory one of them gives RestClient.Builder keeps its own timeouts instead");
		}
		return after;
	}

	private List<String> applicationBeans(String typeName) {
		ClassLoader classLoader = this.beanFactory.getBeanClassLoader();
		if (!ClassUtils.isPresent(typeName, classLoader)) {
			return List.of();
		}
		Class<?> type = ClassUtils.resolveClassName(typeName, classLoader);
		return Arrays.stream(this.beanFactory.getBeanNamesForType(type, false, false)).filter((name) -> {
			Class<?> beanType = this.beanFactory.getType(name, false);
			// The starter's beans (all named safeDefaults...) and Spring's own
			// customizers
			// set no request factory.
			return !name.startsWith("safeDefaults")
					&& (beanType == null || !beanType.getName().startsWith("org.springframework."));
		}).sorted().toList();
	}

	private static Timeout notBoots(String kind, @Nullable Duration value, String property, Source source) {
		String origin = (source == Source.SETTINGS_BEAN) ? "the application's HttpClientSettings bean"
				: "nothing sets " + property;
		return new Timeout(kind, value, source, property, origin);
	}

	/**
	 * A group's timeout as Boot applies it: the group's own property, else the global
	 * settings. Boot's rule (its {@code HttpServiceClientAutoConfiguration} and
	 * {@code HttpClientSettingsPropertyMapper}, checked against Boot 4.0.0 and 4.0.9) has
	 * no public API that says where a group's value came from, so it is restated here;
	 * {@code HttpClientTimeoutsAutoConfigurationTests#aGroupsOwnReadTimeoutWinsOverTheDefault}
	 * times a real call and reads the report, and fails if the two part.
	 */
	private Timeout group(String group, String kind, @Nullable HttpClientSettingsProperties own,
			Function<HttpClientSettingsProperties, @Nullable Duration> read, Timeout global) {
		Duration value = (own != null) ? read.apply(own) : null;
		if (value == null) {
			return global;
		}
		return this.decisions.applications(kind, value,
				"spring.http.serviceclient." + group + "." + kind.toLowerCase(Locale.ROOT) + "-timeout");
	}

	/**
	 * One group's properties. Boot 4.0.0's {@code HttpServiceClientProperties} is a
	 * {@code LinkedHashMap} of them, without the {@code get(String)} that later 4.0
	 * patches have (checked against Boot 4.0.0 and 4.0.9; the {@code boot-matrix}
	 * consumer build starts on both).
	 */
	private static @Nullable HttpClientSettingsProperties groupProperties(HttpServiceClientProperties properties,
			String group) {
		if (properties instanceof Map<?, ?> map) {
			return (map.get(group) instanceof HttpClientSettingsProperties own) ? own : null;
		}
		return properties.get(group);
	}

}
