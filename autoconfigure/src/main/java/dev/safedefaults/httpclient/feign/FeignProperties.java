package dev.safedefaults.httpclient.feign;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The Feign feature: one converters object for every Feign client, built once, without
 * the defaults.
 */
@ConfigurationProperties("safe-defaults.feign")
public class FeignProperties {

	/**
	 * Whether every Feign client gets one converters object, built once and frozen, with
	 * only byte array, String (UTF-8) and JSON (the application's JsonMapper), plus the
	 * application's converter beans and customizers. False restores OpenFeign's own
	 * converters (every client builds all the defaults); the checks keep running.
	 */
	private boolean enabled = true;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

}
