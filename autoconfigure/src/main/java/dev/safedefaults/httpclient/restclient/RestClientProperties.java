package dev.safedefaults.httpclient.restclient;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The RestClient feature: one converters set for every {@code RestClient} built from
 * Boot's builder and every HTTP service group, built once, without the defaults.
 */
@ConfigurationProperties("safe-defaults.restclient")
public class RestClientProperties {

	/**
	 * Whether every RestClient built from Boot's RestClient.Builder, and so every HTTP
	 * service group, gets the converters set built once and shared with the Feign
	 * clients: byte array, String (UTF-8) and JSON (the application's JsonMapper), plus
	 * the application's converter beans and customizers. False restores Boot's converters
	 * (every build assembles all the defaults again); the checks keep running.
	 */
	private boolean enabled = true;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

}
