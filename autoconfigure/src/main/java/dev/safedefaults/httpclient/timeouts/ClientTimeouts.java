package dev.safedefaults.httpclient.timeouts;

import java.time.Duration;

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
	 * One timeout.
	 *
	 * @param kind {@code connect} or {@code read}
	 * @param value the value, {@code null} when none is set
	 * @param source where it comes from
	 * @param property the property that sets it for this client
	 */
	record Timeout(String kind, @Nullable Duration value, Source source, String property) {

		/**
		 * Whether the client waits for ever, or as good as: not set, zero (none for most
		 * clients), negative, or above {@link #LONGEST_BOUNDED}.
		 * @return whether it is no timeout
		 */
		boolean none() {
			return this.value == null || this.value.isZero() || this.value.isNegative()
					|| this.value.compareTo(LONGEST_BOUNDED) > 0;
		}

		String shown() {
			return (this.value != null) ? DurationText.of(this.value) : "not set";
		}

		String describe() {
			return this.kind + " " + shown() + " (" + this.source.describe(this.property) + ")";
		}

	}

	/**
	 * Where a timeout comes from.
	 */
	enum Source {

		/** The starter's default, in its property source. */
		STARTER {
			@Override
			String describe(String property) {
				return "safe-defaults";
			}
		},

		/** The application's own property. */
		PROPERTY {
			@Override
			String describe(String property) {
				return "its own " + property;
			}
		},

		/** An {@code HttpClientSettings} bean of the application's. */
		SETTINGS_BEAN {
			@Override
			String describe(String property) {
				return "the application's HttpClientSettings bean";
			}
		},

		/** Nothing sets it. */
		NONE {
			@Override
			String describe(String property) {
				return "nothing sets " + property;
			}
		};

		abstract String describe(String property);

	}

}
