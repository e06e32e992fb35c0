package dev.safedefaults.httpclient.webclient;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The WebClient feature: Boot's {@code WebClient.Builder} watched for clients built while
 * the application serves traffic ({@code webclient.per-request-build}).
 */
@ConfigurationProperties("safe-defaults.webclient")
public class WebClientProperties {

	/**
	 * Whether the clients built from Boot's WebClient.Builder once the application is
	 * ready are counted, and a client built per request is reported
	 * (webclient.per-request-build). False adds nothing to Boot's builder.
	 */
	private boolean enabled = true;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

}
