package dev.safedefaults.httpclient;

import java.util.function.Consumer;

import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.HttpMessageConverters;
import org.springframework.http.converter.StringHttpMessageConverter;
import org.springframework.util.ClassUtils;

/**
 * What the Framework version at run time does with a client converters builder, found by
 * asking it once (no version number is parsed). Boot 4.0.0 to 4.0.2 bring Framework 7.0.1
 * to 7.0.3, whose builder has no {@code disableDefaults()}; Boot 4.0.3 to 4.0.5 bring
 * 7.0.5 and 7.0.6, where it exists but a builder with its defaults off builds only the
 * custom converters, dropping the String and JSON converters configured on it. From 7.0.7
 * (Boot 4.0.6, every 4.1) a builder with its defaults off keeps what was configured.
 * Checked against Framework 7.0.1, 7.0.5, 7.0.6, 7.0.7 and 7.0.10; the
 * {@code boot-matrix} consumer build proves it on Boot 4.0.0, 4.0.3 and the newest of
 * each line.
 */
public final class FrameworkClientBuilders {

	private static final boolean DEFAULTS_OFF_KEEPS_CONFIGURED = probeDefaultsOffKeepsConfigured();

	private static final boolean LIST_CONFIGURER = ClassUtils.hasMethod(HttpMessageConverters.ClientBuilder.class,
			"configureMessageConvertersList", Consumer.class);

	private FrameworkClientBuilders() {
	}

	/**
	 * Whether a client converters builder with its defaults switched off keeps the
	 * converters configured on it (Framework 7.0.7 and later).
	 * @return {@code true} when it does
	 */
	public static boolean defaultsOffKeepsConfigured() {
		return DEFAULTS_OFF_KEEPS_CONFIGURED;
	}

	/**
	 * Whether the builder has {@code configureMessageConvertersList} (Framework 7.0.3 and
	 * later), through which the final list can be read.
	 * @return {@code true} when it has
	 */
	public static boolean hasListConfigurer() {
		return LIST_CONFIGURER;
	}

	private static boolean probeDefaultsOffKeepsConfigured() {
		if (!ClassUtils.hasMethod(HttpMessageConverters.ClientBuilder.class, "disableDefaults")) {
			return false;
		}
		StringHttpMessageConverter probe = new StringHttpMessageConverter();
		HttpMessageConverters.ClientBuilder builder = HttpMessageConverters.forClient();
		builder.disableDefaults();
		builder.withStringConverter(probe);
		for (HttpMessageConverter<?> converter : builder.build()) {
			if (converter == probe) {
				return true;
			}
		}
		return false;
	}

}
