package dev.safedefaults.runtime;

import java.time.Duration;
import java.time.Instant;

/**
 * Where the detector learns how many throwables the JVM has created and, for a short
 * window, where they were thrown. The flight recorder implements it
 * ({@link JfrThrowableSource}); a JRE without one has none.
 */
public interface ThrowableSource {

	/**
	 * Starts reading.
	 * @param samplingPeriod how often the count is read
	 * @param listener who is told; called on one thread at a time
	 * @throws Exception when the source cannot start
	 */
	void start(Duration samplingPeriod, Listener listener) throws Exception;

	/**
	 * Records where throwables are thrown, with their stack traces, for a short while;
	 * the listener gets the sites once the window's events have all been read.
	 * @param length how long to record
	 */
	void openWindow(Duration length);

	/**
	 * The JVM's cumulative count of created throwables, as last read.
	 * @return the count, 0 before the first reading
	 */
	long throwables();

	/**
	 * Stops reading and releases everything.
	 */
	void close();

	/**
	 * Says what it reads, for the feature status.
	 * @return a short description
	 */
	String describe();

	/**
	 * Told about new counts and recorded windows.
	 */
	interface Listener {

		/**
		 * A new reading of the cumulative count.
		 * @param time when the JVM took it
		 * @param throwables the JVM's cumulative count of created throwables
		 */
		void onSample(Instant time, long throwables);

		/**
		 * A diagnostic window has been read.
		 * @param sites where the window's throws came from
		 */
		void onWindow(ThrowSites sites);

		/**
		 * The source stopped working.
		 * @param failure why
		 */
		void onFailure(Throwable failure);

	}

}
