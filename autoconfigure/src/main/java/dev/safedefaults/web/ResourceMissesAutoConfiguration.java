package dev.safedefaults.web;

import com.github.benmanes.caffeine.cache.Caffeine;
import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.SafeDefaultsAutoConfiguration;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.resource.ResourceHttpRequestHandler;
import org.springframework.web.servlet.resource.ResourceUrlProvider;

/**
 * Spring MVC's resource chain (incident 1 in Spring's own web layer: with the chain on,
 * every link a page renders is looked up as a static resource, and a miss in a fat jar
 * walks every nested jar): the lookup paths that are not resources are remembered for the
 * handlers' unchanging locations, bounded and metered. Off with
 * {@code safe-defaults.resource-misses.enabled=false}; the check keeps running.
 * <p>
 * Servlet stack only: WebFlux renders no link through its {@code ResourceUrlProvider}
 * unless the application calls it itself (see docs/resource-chain.md).
 */
@AutoConfiguration(after = SafeDefaultsAutoConfiguration.class)
@ConditionalOnSafeDefaultsEnabled
@ConditionalOnWebApplication(type = Type.SERVLET)
@ConditionalOnClass(ResourceHttpRequestHandler.class)
@EnableConfigurationProperties(ResourceMissesProperties.class)
public final class ResourceMissesAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	UnchangingLocations safeDefaultsUnchangingLocations() {
		return new UnchangingLocations();
	}

	@Bean
	ResourceMissesCheck safeDefaultsResourceMissesCheck(ListableBeanFactory beanFactory,
			ResourceMissesProperties properties, UnchangingLocations unchangingLocations) {
		return new ResourceMissesCheck(beanFactory, properties.isEnabled(), unchangingLocations);
	}

	@Bean
	ResourceMissesFeatureStatus safeDefaultsResourceMissesFeatureStatus(ResourceMissesProperties properties,
			ObjectProvider<ResourceMissesInstaller> installers, ObjectProvider<RememberedMisses> misses) {
		return new ResourceMissesFeatureStatus(properties, installers, misses);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Caffeine.class)
	@ConditionalOnBooleanProperty(name = ResourceMissesProperties.ENABLED_PROPERTY, matchIfMissing = true)
	static class RememberedMissesConfiguration {

		@Bean
		RememberedMisses safeDefaultsRememberedResourceMisses(ResourceMissesProperties properties) {
			return new RememberedMisses(properties.getMaximumSize());
		}

		@Bean
		ResourceMissesInstaller safeDefaultsResourceMissesInstaller(ObjectProvider<HandlerMapping> handlerMappings,
				ObjectProvider<ResourceUrlProvider> urlProviders, RememberedMisses misses,
				UnchangingLocations unchangingLocations) {
			return new ResourceMissesInstaller(handlerMappings, urlProviders, misses, unchangingLocations);
		}

	}

}
