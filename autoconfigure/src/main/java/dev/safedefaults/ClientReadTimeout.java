package dev.safedefaults;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * The read timeout the starter decided for the HTTP clients Boot builds, for the features
 * that follow it: the HTTP client timeouts feature decides it once (the application's
 * {@code spring.http.clients.read-timeout}, else the starter's default), and the
 * stuck-request watch's threshold follows it, so that a request is examined only once it
 * has run longer than any call through such a client may wait. One per application
 * context; the starter's default is written here and nowhere else.
 */
public final class ClientReadTimeout {

	/**
	 * The read timeout the starter gives the clients Boot builds where the application
	 * sets none: OpenFeign's, the most conservative peer's.
	 */
	public static final Duration STARTER_DEFAULT = Duration.ofSeconds(60);

	private volatile @Nullable Duration decided;

	/**
	 * Notes the decision, once Boot's client settings exist.
	 * @param readTimeout the read timeout decided, or {@code null} when the clients got
	 * none (the timeouts feature switched off and none set)
	 */
	public void decided(@Nullable Duration readTimeout) {
		this.decided = readTimeout;
	}

	/**
	 * The read timeout decided.
	 * @return it, or {@link #STARTER_DEFAULT} when none was decided (no client built by
	 * Boot, or the timeouts feature switched off and none set) or the one decided bounds
	 * nothing (zero or negative: no timeout)
	 */
	public Duration orStarterDefault() {
		Duration read = this.decided;
		return (read != null && read.compareTo(Duration.ZERO) > 0) ? read : STARTER_DEFAULT;
	}

}
