package dev.safedefaults.httpclient.restclient;

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
 * the application's.
 */
final class BootsConvertersCustomizerStandIn implements BeanPostProcessor {

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		// A class literal: a rename in Boot fails this module's build, not silently.
		if (bean.getClass() == HttpMessageConvertersRestClientCustomizer.class) {
			return new ReplacedByTheSharedSet();
		}
		return bean;
	}

	/**
	 * What Boot's customizer bean becomes: nothing to apply, the shared set is applied by
	 * {@link SharedConvertersRestClientCustomizer}.
	 */
	static final class ReplacedByTheSharedSet implements RestClientCustomizer {

		@Override
		public void customize(RestClient.Builder restClientBuilder) {
			// Boot's customizers already went into the shared set, once.
		}

	}

}
