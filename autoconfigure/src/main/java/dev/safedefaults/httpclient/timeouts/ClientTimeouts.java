package dev.safedefaults.httpclient.timeouts;

import java.time.Duration;

import dev.safedefaults.DurationText;
import org.jspecify.annotations.Nullable;

/**
 * The timeouts one Boot-built client (or group of clients) gets, and where each comes
 * from.
 *
 * @param subject the clients, as the status and findings name them
 * @param connect the connect timeout
 * @param read the read timeout
 */
record ClientTimeouts(String subject, Timeout connect, Timeout read) {

	/**
	 * The longest timeout that still counts as one: above an hour a request thread is
	 * held for as good as ever.
	 */
	static final Duration LONGEST_BOUNDED = Duration.ofHours(1);

	/**
	 * Whether the starter's defaults gave the client both timeouts.
	 * @return whether both come from the starter
	 */
	boolean allDefaults() {
		return this.connect.source() == Source.STARTER && this.read.source() == Source.STARTER;
	}

	/**
	 * Whether the starter gave the client one of its timeouts.
	 * @return whether one comes from the starter
	 */
	boolean anyDefault() {
		return this.connect.source() == Source.STARTER || this.read.source() == Source.STARTER;
	}

	String describe() {
		return this.subject + ": " + this.connect.describe() + ", " + this.read.describe();
	}

	/**
	 * One timeout, decided once by {@link TimeoutDecisions}.
	 *
	 * @param kind {@code connect} or {@code read}
	 * @param value the value, {@code null} when none is set (or when only the
	 * application's own request factory knows it)
	 * @param source where it comes from
	 * @param property the property that sets it for this client
	 * @param origin where it comes from, in words
	 */
	record Timeout(String kind, @Nullable Duration value, Source source, String property, String origin) {

		/**
		 * Whether the client's wait is not bounded by it, or as good as: not set, zero,
		 * negative, or above {@link #LONGEST_BOUNDED}. A timeout only the application's
		 * own request factory knows is not judged.
		 * @return whether it is no working timeout
		 */
		boolean none() {
			if (this.source == Source.OWN_FACTORY) {
				return false;
			}
			return this.value == null || this.value.isZero() || this.value.isNegative()
					|| this.value.compareTo(LONGEST_BOUNDED) > 0;
		}

		String shown() {
			return (this.value != null) ? DurationText.of(this.value) : "not set";
		}

		String describe() {
			if (this.source == Source.OWN_FACTORY) {
				return this.kind + " " + this.origin;
			}
			return this.kind + " " + shown() + " (" + this.origin + ")";
		}

		/**
		 * What the value does to a call, in words, for a value that is {@link #none()}.
		 * @return what a call does with it
		 */
		String effect() {
			if (this.value == null || this.value.compareTo(LONGEST_BOUNDED) > 0) {
				return "a downstream that accepts the connection and never answers holds the calling thread "
						+ ((this.value == null) ? "for ever" : "for over an hour")
						+ " (measured: 250 concurrent calls blocked all 200 Tomcat threads, and the service answered "
						+ "nothing until the downstream closed its sockets)";
			}
			if ("connect".equals(this.kind)) {
				return (this.value.isZero() ? "0" : "a negative value")
						+ " is no connect timeout: HttpURLConnection takes it as none and waits until the operating system "
						+ "gives up (about 2 minutes on Linux), and the JDK HttpClient refuses it, so a client built "
						+ "with it fails to start";
			}
			if (this.value.isZero()) {
				return "0 is no timeout: the JDK HttpClient (Spring Framework 7.0.10) and HttpURLConnection wait for "
						+ "ever on a downstream that accepts the connection and never answers";
			}
			return "a negative value makes every call on the JDK HttpClient fail at once with a timeout, healthy "
					+ "downstreams included, while HttpURLConnection ignores it and waits for ever";
		}

	}

	/**
	 * Where a timeout comes from.
	 */
	enum Source {

		/** The starter's default. */
		STARTER,

		/** The application's own property, in any form Boot binds. */
		PROPERTY,

		/** An {@code HttpClientSettings} bean of the application's. */
		SETTINGS_BEAN,

		/**
		 * The application's own request factory, which the starter gives no default: only
		 * the factory knows its value.
		 */
		OWN_FACTORY,

		/** Nothing sets it. */
		NONE

	}

}
