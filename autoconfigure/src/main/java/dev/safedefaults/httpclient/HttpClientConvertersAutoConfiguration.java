package dev.safedefaults.httpclient;

import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FindingsStore;

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
 * Once built it is checked against the clients' usual converters, and what became of it
 * is kept in {@link SharedConvertersOutcome} for the client features' status lines.
 */
@AutoConfiguration(after = SafeDefaultsAutoConfiguration.class)
@ConditionalOnSafeDefaultsEnabled
@ConditionalOnClass(name = { "org.springframework.http.converter.HttpMessageConverters",
		"org.springframework.boot.http.converter.autoconfigure.ClientHttpMessageConvertersCustomizer" })
public final class HttpClientConvertersAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	SharedConvertersOutcome safeDefaultsSharedConvertersOutcome(ObjectProvider<FindingsStore> store) {
		return new SharedConvertersOutcome(store);
	}

	@Bean
	@Lazy
	@ConditionalOnMissingBean
	SharedClientConverters safeDefaultsSharedClientConverters(ListableBeanFactory beanFactory,
			ObjectProvider<ClientHttpMessageConvertersCustomizer> customizers, SharedConvertersOutcome outcome) {
		return outcome.built(SharedClientConverters.build(SharedClientConverters.jsonConverter(beanFactory),
				customizers.orderedStream().toList()));
	}

}
