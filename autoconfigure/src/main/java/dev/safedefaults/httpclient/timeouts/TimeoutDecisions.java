package dev.safedefaults.httpclient.timeouts;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;

import dev.safedefaults.ClientReadTimeout;
import dev.safedefaults.DurationText;
import dev.safedefaults.httpclient.timeouts.ClientTimeouts.Source;
import dev.safedefaults.httpclient.timeouts.ClientTimeouts.Timeout;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * The one place that decides the timeouts of Boot's HTTP clients and where each comes
 * from, once, when Boot makes its {@code HttpClientSettings} bean (which every client
 * Boot builds starts from: RestClient.Builder, RestTemplateBuilder, WebClient.Builder,
 * and each HTTP service group as its fallback). A timeout Boot bound from the
 * application, from any property source and in any form Boot binds, is kept and named
 * with its origin; one Boot left unset gets the starter's default. The rest of the
 * feature reads the decision.
 * <p>
 * An application's {@code HttpClientSettings} bean is left alone (Boot's backs off). A
 * {@code ClientHttpRequestFactoryBuilder} that is none of Boot's five typed builders (one
 * from {@code ClientHttpRequestFactoryBuilder.of(...)}, which sets the settings' timeouts
 * on the application's factory by reflection and refuses a factory without a
 * {@code setConnectTimeout}) builds without the starter's defaults: its factory keeps
 * what the application gave it. The same holds for WebClient's connector (issue 52): a
 * {@code ClientHttpConnectorBuilder} that is none of Boot's four typed builders builds
 * without the starter's defaults ({@link DefaultsFreeConnectorBuilder}). The rule is per
 * client kind: a builder the application brought for one kind is no choice for the other,
 * which keeps the defaults (and the status names each).
 */
final class TimeoutDecisions implements BeanPostProcessor, BeanFactoryAware {

	private static final String BOOTS_SETTINGS_CONFIGURATION = "org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration";

	private static final String JDK_BUILDER = "org.springframework.boot.http.client.JdkClientHttpRequestFactoryBuilder";

	/** Boot's builders, which apply each setting through their client's own API. */
	private static final Set<String> BOOTS_TYPED_BUILDERS = Set.of(JDK_BUILDER,
			"org.springframework.boot.http.client.SimpleClientHttpRequestFactoryBuilder",
			"org.springframework.boot.http.client.HttpComponentsClientHttpRequestFactoryBuilder",
			"org.springframework.boot.http.client.JettyClientHttpRequestFactoryBuilder",
			"org.springframework.boot.http.client.ReactorClientHttpRequestFactoryBuilder");

	private final ConfigurableEnvironment environment;

	private final @Nullable HttpClientTimeoutsDefaults defaults;

	private @Nullable ConfigurableListableBeanFactory beanFactory;

	private volatile @Nullable ClientTimeouts boots;

	private volatile @Nullable String ownFactoryBuilder;

	private volatile @Nullable String ownConnectorBuilder;

	private boolean reactive;

	TimeoutDecisions(ConfigurableEnvironment environment) {
		this.environment = environment;
		this.defaults = HttpClientTimeoutsDefaults.of(environment);
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) throws BeansException {
		this.beanFactory = (ConfigurableListableBeanFactory) beanFactory;
		this.reactive = ReactiveConnectors.present(this.beanFactory.getBeanClassLoader());
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
		if (bean instanceof HttpClientSettings settings && isBootsSettings(beanName)) {
			return decide(settings);
		}
		if (this.defaults == null) {
			// Switched off: Boot's clients stay as Boot builds them.
			return bean;
		}
		if (bean instanceof ClientHttpRequestFactoryBuilder<?> builder
				&& JDK_BUILDER.equals(builder.getClass().getName())) {
			return new DeadlineNamingBuilder(builder, this);
		}
		if (bean instanceof ClientHttpRequestFactoryBuilder<?> builder
				&& !BOOTS_TYPED_BUILDERS.contains(builder.getClass().getName())
				&& !(builder instanceof DeadlineNamingBuilder) && !(builder instanceof DefaultsFreeBuilder<?>)) {
			this.ownFactoryBuilder = beanName;
			return new DefaultsFreeBuilder<>(builder, this);
		}
		if (this.reactive && ReactiveConnectors.isApplicationsBuilder(bean)) {
			// The same rule for WebClient's connector (issue 52).
			this.ownConnectorBuilder = beanName;
			return ReactiveConnectors.standBackFor(bean, this);
		}
		return bean;
	}

	private HttpClientSettings decide(HttpClientSettings settings) {
		Duration defaultConnect = (this.defaults != null) ? this.defaults.connect() : null;
		Duration defaultRead = (this.defaults != null) ? this.defaults.read() : null;
		Timeout connect = decide("connect", settings.connectTimeout(), defaultConnect,
				HttpClientTimeoutsDefaults.BOOT_CONNECT);
		Timeout read = decide("read", settings.readTimeout(), defaultRead, HttpClientTimeoutsDefaults.BOOT_READ);
		this.boots = new ClientTimeouts(BootClientTimeouts.BOOT_CLIENTS, connect, read);
		if (this.beanFactory != null) {
			// The features that follow the decision (the stuck-request watch's
			// threshold).
			this.beanFactory.getBeanProvider(ClientReadTimeout.class)
				.ifAvailable((decided) -> decided.decided(read.value()));
		}
		return settings.withTimeouts(connect.value(), read.value());
	}

	private Timeout decide(String kind, @Nullable Duration bound, @Nullable Duration fallback, String property) {
		if (bound != null) {
			return applications(kind, bound, property);
		}
		if (fallback != null) {
			return new Timeout(kind, fallback, Source.STARTER, property, "safe-defaults");
		}
		return new Timeout(kind, null, Source.NONE, property, "nothing sets " + property);
	}

	/**
	 * A timeout the application set through a property, named with where Boot read it
	 * (the file and line, the environment variable, the argument).
	 * @param kind {@code connect} or {@code read}
	 * @param value the value Boot bound
	 * @param property the property, in its canonical form
	 * @return the timeout
	 */
	Timeout applications(String kind, Duration value, String property) {
		ConfigurationPropertyName name = ConfigurationPropertyName.of(property);
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(this.environment)) {
			ConfigurationProperty found = source.getConfigurationProperty(name);
			if (found != null) {
				String origin = (found.getOrigin() != null) ? ", from " + found.getOrigin() : "";
				return new Timeout(kind, value, Source.PROPERTY, property, "the application's " + property + origin);
			}
		}
		return new Timeout(kind, value, Source.PROPERTY, property, "the application's " + property);
	}

	/**
	 * The settings without the starter's defaults, for a builder the starter stands back
	 * for: a value equal to a default the starter gave Boot's settings is taken out.
	 * @param settings the settings a client is built with
	 * @return the settings with the application's timeouts only
	 */
	HttpClientSettings withoutDefaults(HttpClientSettings settings) {
		ClientTimeouts decided = this.boots;
		if (decided == null) {
			return settings;
		}
		return settings.withTimeouts(applications(settings.connectTimeout(), decided.connect()),
				applications(settings.readTimeout(), decided.read()));
	}

	private static @Nullable Duration applications(@Nullable Duration value, Timeout decided) {
		return (decided.source() == Source.STARTER && Objects.equals(value, decided.value())) ? null : value;
	}

	/**
	 * What was decided for Boot's settings, with the application's own request factory in
	 * place of the starter's defaults where the starter stood back for it.
	 * @return the timeouts, or {@code null} when Boot made no settings bean
	 */
	@Nullable ClientTimeouts boots() {
		ClientTimeouts decided = this.boots;
		String builder = this.ownFactoryBuilder;
		if (decided == null || builder == null) {
			return decided;
		}
		return new ClientTimeouts(decided.subject(), ownRequestFactory(decided.connect(), builder),
				ownRequestFactory(decided.read(), builder));
	}

	/**
	 * What was decided for the connector of Boot's {@code WebClient.Builder}, built from
	 * the same settings: the connector of a {@code ClientHttpConnectorBuilder} that is
	 * none of Boot's in place of the starter's defaults where the starter stood back for
	 * it. An application's own request factory builder is no choice for this connector.
	 * @return the timeouts, or {@code null} when Boot made no settings bean
	 */
	@Nullable ClientTimeouts webClients() {
		ClientTimeouts decided = this.boots;
		if (decided == null) {
			return null;
		}
		String builder = this.ownConnectorBuilder;
		ClientTimeouts webClients = new ClientTimeouts(BootClientTimeouts.WEB_CLIENTS, decided.connect(),
				decided.read());
		if (builder == null) {
			return webClients;
		}
		String origin = "as the connector of the ClientHttpConnectorBuilder bean '" + builder
				+ "' (none of Boot's builders: the application's, or one its ClientHttpConnectorBuilderCustomizer "
				+ "returned) sets it (safe-defaults adds none to it)";
		return new ClientTimeouts(webClients.subject(), ownFactory(decided.connect(), origin),
				ownFactory(decided.read(), origin));
	}

	private static Timeout ownRequestFactory(Timeout decided, String builder) {
		return ownFactory(decided, "as the request factory of the application's ClientHttpRequestFactoryBuilder bean '"
				+ builder + "' sets it (safe-defaults adds none to it)");
	}

	private static Timeout ownFactory(Timeout decided, String origin) {
		if (decided.source() != Source.STARTER) {
			return decided;
		}
		return new Timeout(decided.kind(), null, Source.OWN_FACTORY, decided.property(), origin);
	}

	/**
	 * What a JDK client's exchange ended by its read timeout says: the timeout, its
	 * value, where it came from and the property that lifts it.
	 * @param read the read timeout the client was built with
	 * @return the message
	 */
	String cutMessage(Duration read) {
		ClientTimeouts decided = this.boots;
		String origin = (decided != null && read.equals(decided.read().value())) ? decided.read().origin()
				: "the settings this client was built with, such as an HTTP service group's "
						+ "spring.http.serviceclient.<group>.read-timeout";
		return "The read timeout of " + DurationText.of(read) + " (" + origin + ") ended this exchange: on the JDK "
				+ "HttpClient a read timeout is a deadline on the whole exchange, from sending the request until the "
				+ "body is read, not a bound on silence. To let a longer response through, raise "
				+ HttpClientTimeoutsDefaults.BOOT_READ
				+ " (or spring.http.serviceclient.<group>.read-timeout for one HTTP service group).";
	}

	/**
	 * Whether the starter gives Boot's clients defaults.
	 * @return whether the feature is on
	 */
	boolean defaultsOn() {
		return this.defaults != null;
	}

	private boolean isBootsSettings(String beanName) {
		if (this.beanFactory == null || !this.beanFactory.containsBeanDefinition(beanName)) {
			return false;
		}
		BeanDefinition definition = this.beanFactory.getBeanDefinition(beanName);
		return BOOTS_SETTINGS_CONFIGURATION.equals(definition.getFactoryBeanName());
	}

}
