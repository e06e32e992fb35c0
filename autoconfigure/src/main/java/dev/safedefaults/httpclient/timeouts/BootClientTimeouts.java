package dev.safedefaults.httpclient.timeouts;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import dev.safedefaults.httpclient.timeouts.ClientTimeouts.Source;
import dev.safedefaults.httpclient.timeouts.ClientTimeouts.Timeout;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.http.client.autoconfigure.HttpClientSettingsProperties;
import org.springframework.boot.http.client.autoconfigure.service.HttpServiceClientProperties;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.web.service.registry.HttpServiceProxyRegistry;

/**
 * Reads the timeouts Boot gives its clients, from Boot's own beans: the
 * {@code HttpClientSettings} every client Boot builds starts from (RestClient.Builder,
 * RestTemplateBuilder, WebClient.Builder), and each HTTP service group's own
 * {@code spring.http.serviceclient.<group>.*}, which Boot takes before the global value.
 * Reading changes nothing.
 */
final class BootClientTimeouts {

	static final String BOOT_CLIENTS = "Boot's HTTP clients";

	private static final String BOOTS_SETTINGS_CONFIGURATION = "org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration";

	private final ConfigurableEnvironment environment;

	private final ConfigurableListableBeanFactory beanFactory;

	private final ObjectProvider<HttpClientSettings> settings;

	private final ObjectProvider<HttpServiceProxyRegistry> registry;

	private final ObjectProvider<HttpServiceClientProperties> groupProperties;

	BootClientTimeouts(ConfigurableEnvironment environment, ConfigurableListableBeanFactory beanFactory,
			ObjectProvider<HttpClientSettings> settings, ObjectProvider<HttpServiceProxyRegistry> registry,
			ObjectProvider<HttpServiceClientProperties> groupProperties) {
		this.environment = environment;
		this.beanFactory = beanFactory;
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
		boolean bootsSettings = isBootsSettingsBean();
		ClientTimeouts clients = new ClientTimeouts(BOOT_CLIENTS,
				global("connect", global.connectTimeout(), HttpClientTimeoutsDefaults.BOOT_CONNECT, bootsSettings),
				global("read", global.readTimeout(), HttpClientTimeoutsDefaults.BOOT_READ, bootsSettings));
		List<ClientTimeouts> all = new ArrayList<>();
		all.add(clients);
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

	private Timeout global(String kind, @Nullable Duration value, String property, boolean bootsSettings) {
		if (!bootsSettings) {
			return new Timeout(kind, value, Source.SETTINGS_BEAN, property);
		}
		if (value == null) {
			return new Timeout(kind, null, Source.NONE, property);
		}
		Source source = HttpClientTimeoutsDefaults.fromDefaults(this.environment, property) ? Source.STARTER
				: Source.PROPERTY;
		return new Timeout(kind, value, source, property);
	}

	private static Timeout group(String group, String kind, @Nullable HttpClientSettingsProperties own,
			Function<HttpClientSettingsProperties, @Nullable Duration> read, Timeout global) {
		Duration value = (own != null) ? read.apply(own) : null;
		if (value == null) {
			return global;
		}
		return new Timeout(kind, value, Source.PROPERTY,
				"spring.http.serviceclient." + group + "." + kind.toLowerCase(Locale.ROOT) + "-timeout");
	}

	private boolean isBootsSettingsBean() {
		String[] names = this.beanFactory.getBeanNamesForType(HttpClientSettings.class, false, false);
		if (names.length != 1 || !this.beanFactory.containsBeanDefinition(names[0])) {
			return names.length == 0;
		}
		BeanDefinition definition = this.beanFactory.getBeanDefinition(names[0]);
		return BOOTS_SETTINGS_CONFIGURATION.equals(definition.getFactoryBeanName());
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
