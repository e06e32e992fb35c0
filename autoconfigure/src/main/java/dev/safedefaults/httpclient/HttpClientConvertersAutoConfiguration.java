package dev.safedefaults.httpclient;

import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.SafeDefaultsAutoConfiguration;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.http.converter.autoconfigure.ClientHttpMessageConvertersCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Lazy;

/**
 * The one converters set every HTTP client kind shares (incident 1). It is lazy: built
 * the first time a client kind asks for it, never in an application without HTTP clients.
 */
@AutoConfiguration(after = SafeDefaultsAutoConfiguration.class)
@ConditionalOnSafeDefaultsEnabled
@ConditionalOnClass(name = { "org.springframework.http.converter.HttpMessageConverters",
		"org.springframework.boot.http.converter.autoconfigure.ClientHttpMessageConvertersCustomizer" })
public final class HttpClientConvertersAutoConfiguration {

	@Bean
	@Lazy
	@ConditionalOnMissingBean
	SharedClientConverters safeDefaultsSharedClientConverters(ListableBeanFactory beanFactory,
			ObjectProvider<ClientHttpMessageConvertersCustomizer> customizers) {
		return SharedClientConverters.build(SharedClientConverters.jsonConverter(beanFactory),
				customizers.orderedStream().toList());
	}

}
