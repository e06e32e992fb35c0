package dev.safedefaults.stuckrequests;

import java.time.Duration;

import dev.safedefaults.ClientReadTimeout;
import dev.safedefaults.PropertyBounds;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The stuck-request watch ({@code safe-defaults.stuck-requests.*}).
 */
@ConfigurationProperties(StuckRequestsProperties.PREFIX)
public class StuckRequestsProperties implements InitializingBean {

	static final String PREFIX = "safe-defaults.stuck-requests";

	static final String ENABLED_PROPERTY = PREFIX + ".enabled";

	static final String LEARN_HOSTS_PROPERTY = PREFIX + ".learn-hosts";

	static final String INTERRUPT_AFTER_PROPERTY = PREFIX + ".interrupt-after";

	/** The longest deadline accepted: a request running an hour is not served. */
	static final Duration MAX_INTERRUPT_AFTER = Duration.ofHours(1);

	/**
	 * The shortest threshold accepted: below it, healthy slow pages would be examined.
	 */
	static final Duration MIN_THRESHOLD = Duration.ofSeconds(1);

	/**
	 * Whether to watch servlet requests that run longer than the threshold: each such
	 * request is examined once, from its own thread's stack, and what it waits for (an
	 * HTTP response, a JDBC read, a pool connection, a lock, a sleep) is a finding while
	 * it lasts, logged at once. On a healthy service it costs a map entry per request.
	 */
	private boolean enabled = true;

	/**
	 * How long a request may run before it is examined. From 1s to 10m. Unset, it is the
	 * read timeout decided for the HTTP clients Boot builds
	 * (spring.http.clients.read-timeout, else the starter's, 60s), kept within that
	 * range: a request that waits longer than that waits on something no timeout of those
	 * clients bounds.
	 */
	private @Nullable Duration threshold;

	/**
	 * Whether to learn the host and port each request calls by wrapping the JVM's default
	 * proxy selector (once per JVM, shared by every application context), which the JDK
	 * HttpClient, HttpURLConnection and Apache HttpClient 5 built from system properties
	 * ask before they connect. False: the JVM's proxy selector is left alone and an HTTP
	 * wait names an unknown host.
	 */
	private boolean learnHosts = true;

	/**
	 * A deadline, off unless set: a request still running this long, on its own thread,
	 * in a wait an interrupt ends (the JDK HttpClient's send, a wait for a Hikari
	 * connection, Object.wait, Thread.sleep, Future.get, lockInterruptibly; on virtual
	 * threads, socket reads and writes) gets its thread interrupted, once, and the
	 * application sees the library's own failure (an IOException from the client, an
	 * SQLException from Hikari). Never a request that has ended. A wait an interrupt
	 * cannot end (synchronized, ReentrantLock.lock(), a socket read on a platform thread)
	 * is only reported. The risk: an interrupt is a signal to the whole thread, and a
	 * FileChannel or other NIO channel the request reads on that thread is closed by it.
	 * From 1s to 1h; requests are examined no later than it (the threshold in force is
	 * the shorter of the two).
	 */
	private @Nullable Duration interruptAfter;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public @Nullable Duration getThreshold() {
		return this.threshold;
	}

	public void setThreshold(@Nullable Duration threshold) {
		this.threshold = threshold;
	}

	public @Nullable Duration getInterruptAfter() {
		return this.interruptAfter;
	}

	public void setInterruptAfter(@Nullable Duration interruptAfter) {
		this.interruptAfter = interruptAfter;
	}

	public boolean isLearnHosts() {
		return this.learnHosts;
	}

	public void setLearnHosts(boolean learnHosts) {
		this.learnHosts = learnHosts;
	}

	/**
	 * The threshold in force: the one set, else the read timeout decided for Boot's
	 * clients, kept within the range a set one must be in; never past the deadline, when
	 * one is set.
	 * @param readTimeout the read timeout decided for Boot's clients
	 * @return the threshold
	 */
	public Duration threshold(ClientReadTimeout readTimeout) {
		Duration threshold = unlessInterruptedSooner(readTimeout);
		Duration deadline = this.interruptAfter;
		return (deadline != null && deadline.compareTo(threshold) < 0) ? deadline : threshold;
	}

	private Duration unlessInterruptedSooner(ClientReadTimeout readTimeout) {
		Duration set = this.threshold;
		if (set != null) {
			return set;
		}
		Duration followed = readTimeout.orStarterDefault();
		if (followed.compareTo(MIN_THRESHOLD) < 0) {
			return MIN_THRESHOLD;
		}
		return (followed.compareTo(PropertyBounds.MAX_TIMEOUT) > 0) ? PropertyBounds.MAX_TIMEOUT : followed;
	}

	@Override
	public void afterPropertiesSet() {
		if (this.threshold != null) {
			PropertyBounds.requireRange(PREFIX + ".threshold", this.threshold, MIN_THRESHOLD,
					PropertyBounds.MAX_TIMEOUT, "such as 60s; how long a request runs before it is examined");
		}
		if (this.interruptAfter != null) {
			PropertyBounds.requireRange(INTERRUPT_AFTER_PROPERTY, this.interruptAfter, MIN_THRESHOLD,
					MAX_INTERRUPT_AFTER, "such as 30s, or unset (the default) for no deadline; how long a request "
							+ "runs before its thread is interrupted, if an interrupt ends what it waits on");
		}
	}

}
