package dev.safedefaults.httpclient.timeouts;

import java.util.Arrays;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.http.client.reactive.ClientHttpConnectorBuilder;
import org.springframework.http.client.reactive.ClientHttpConnector;
import org.springframework.util.ClassUtils;

/**
 * What the starter knows of Boot's reactive HTTP clients (the connector of Boot's
 * {@code WebClient.Builder}), kept apart so that no reactive class is loaded where Boot's
 * reactive client support is absent: callers ask {@link #present(ClassLoader)} first.
 * <p>
 * Boot 4.0 and 4.1 build that connector the same way (read in their
 * {@code ReactiveHttpClientAutoConfiguration} and {@code WebClientAutoConfiguration}):
 * Boot's {@code ClientHttpConnectorBuilder} bean (its four typed builders, picked by
 * {@code spring.http.clients.reactive.connector} or by the class path, then the
 * application's {@code ClientHttpConnectorBuilderCustomizer} beans) builds Boot's lazy
 * {@code ClientHttpConnector} bean from the same {@code HttpClientSettings} bean as the
 * imperative clients, and Boot's {@code WebClientCustomizer} gives it to every
 * {@code WebClient.Builder} it hands out. An application's own
 * {@code ClientHttpConnector} bean replaces Boot's, and the settings never reach it.
 */
final class ReactiveConnectors {

	private static final String CONNECTOR_BUILDER = "org.springframework.boot.http.client.reactive.ClientHttpConnectorBuilder";

	private static final String CONNECTOR = "org.springframework.http.client.reactive.ClientHttpConnector";

	private static final String BOOTS_REACTIVE_CONFIGURATION = "org.springframework.boot.http.client.autoconfigure.reactive.ReactiveHttpClientAutoConfiguration";

	/** Boot's builders, which apply each setting through their client's own API. */
	private static final Set<String> BOOTS_TYPED_BUILDERS = Set.of(
			"org.springframework.boot.http.client.reactive.ReactorClientHttpConnectorBuilder",
			"org.springframework.boot.http.client.reactive.JettyClientHttpConnectorBuilder",
			"org.springframework.boot.http.client.reactive.HttpComponentsClientHttpConnectorBuilder",
			"org.springframework.boot.http.client.reactive.JdkClientHttpConnectorBuilder");

	private ReactiveConnectors() {
	}

	/**
	 * Whether Boot's reactive client support is on the class path.
	 * @param classLoader the context's class loader
	 * @return whether the other methods may be called
	 */
	static boolean present(@Nullable ClassLoader classLoader) {
		return ClassUtils.isPresent(CONNECTOR_BUILDER, classLoader) && ClassUtils.isPresent(CONNECTOR, classLoader);
	}

	/**
	 * Whether the bean is a connector builder that is none of Boot's typed builders and
	 * not yet stood back for.
	 * @param bean a bean
	 * @return whether the starter stands back for it
	 */
	static boolean isApplicationsBuilder(Object bean) {
		return bean instanceof ClientHttpConnectorBuilder<?> && !(bean instanceof DefaultsFreeConnectorBuilder<?>)
				&& !BOOTS_TYPED_BUILDERS.contains(bean.getClass().getName());
	}

	/**
	 * The builder, given the settings without the starter's defaults.
	 * @param bean a bean for which {@link #isApplicationsBuilder(Object)} holds
	 * @param decisions the decisions
	 * @return the builder that replaces it
	 */
	static Object standBackFor(Object bean, TimeoutDecisions decisions) {
		return new DefaultsFreeConnectorBuilder<>((ClientHttpConnectorBuilder<?>) bean, decisions);
	}

	/**
	 * What builds the connector of Boot's {@code WebClient.Builder}.
	 * @param beanFactory the bean factory
	 * @return how the connector is made, or {@code null} when there is no connector
	 * builder nor connector bean (no WebClient support, or a servlet application without
	 * Boot's reactive client auto-configuration)
	 */
	static @Nullable Connector connector(ConfigurableListableBeanFactory beanFactory) {
		List<String> own = Arrays.stream(beanFactory.getBeanNamesForType(ClientHttpConnector.class, true, false))
			.filter((name) -> !isBoots(beanFactory, name))
			.sorted()
			.toList();
		if (!own.isEmpty()) {
			return new Connector(String.join(", ", own), true);
		}
		String[] builders = beanFactory.getBeanNamesForType(ClientHttpConnectorBuilder.class, true, false);
		return (builders.length > 0) ? new Connector(builders[0], false) : null;
	}

	private static boolean isBoots(ConfigurableListableBeanFactory beanFactory, String name) {
		if (!beanFactory.containsBeanDefinition(name)) {
			return false;
		}
		BeanDefinition definition = beanFactory.getBeanDefinition(name);
		return BOOTS_REACTIVE_CONFIGURATION.equals(definition.getFactoryBeanName());
	}

	/**
	 * How the connector of Boot's {@code WebClient.Builder} is made.
	 *
	 * @param beanName the bean that makes it: the application's connector beans, or the
	 * connector builder bean
	 * @param ownConnector whether the application's own {@code ClientHttpConnector} bean
	 * replaces Boot's (the settings never reach it)
	 */
	record Connector(String beanName, boolean ownConnector) {
	}

}
