package dev.safedefaults.httpclient.restclient;

import dev.safedefaults.httpclient.SharedClientConverters;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.boot.restclient.autoconfigure.HttpMessageConvertersRestClientCustomizer;
import org.springframework.web.client.RestClient;

/**
 * Stands in for Boot's {@code HttpMessageConvertersRestClientCustomizer} while the shared
 * set is on. Boot's customizer runs the {@code ClientHttpMessageConvertersCustomizer}s on
 * every {@code build()}, and Boot's default one calls {@code registerDefaults()}: every
 * client built assembles every format on the class path again. The shared set already ran
 * those customizers once, at startup, so Boot's bean is replaced by a customizer that
 * does nothing; {@link SharedConvertersRestClientCustomizer} gives the builders the
 * result. Only that exact class is replaced, never a subclass or another customizer of
 * the application's; and Boot's customizer still applies when the shared set turned out
 * incomplete.
 */
final class BootsConvertersCustomizerStandIn implements BeanPostProcessor {

	private final ObjectProvider<SharedClientConverters> shared;

	BootsConvertersCustomizerStandIn(ObjectProvider<SharedClientConverters> shared) {
		this.shared = shared;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		// A class literal: a rename in Boot fails this module's build, not silently.
		if (bean.getClass() == HttpMessageConvertersRestClientCustomizer.class) {
			return new ReplacedByTheSharedSet((RestClientCustomizer) bean, this.shared);
		}
		return bean;
	}

	/**
	 * What Boot's customizer bean becomes: nothing to apply while the shared set is
	 * complete, it is applied by {@link SharedConvertersRestClientCustomizer}; Boot's own
	 * customizer when the set lacked something, so that no client loses a converter.
	 */
	static final class ReplacedByTheSharedSet implements RestClientCustomizer {

		private final RestClientCustomizer boots;

		private final ObjectProvider<SharedClientConverters> shared;

		ReplacedByTheSharedSet(RestClientCustomizer boots, ObjectProvider<SharedClientConverters> shared) {
			this.boots = boots;
			this.shared = shared;
		}

		@Override
		public void customize(RestClient.Builder restClientBuilder) {
			if (!this.shared.getObject().isComplete()) {
				this.boots.customize(restClientBuilder);
			}
		}

	}

}
