package dev.safedefaults.logging;

import org.jspecify.annotations.Nullable;

/**
 * Which major version of the LMAX Disruptor is on the class path. Log4j 2.25 with
 * Disruptor 4.x loses events, WARN and ERROR included and uncounted, whenever the ring
 * buffer is full: 4.0 advances the cursor before it waits, the remaining capacity goes
 * negative, and Log4j reads that as "shut down".
 */
public enum DisruptorVersion {

	/** No Disruptor: no async loggers at all. */
	ABSENT,

	/** 3.x, the version Log4j is built against. */
	V3,

	/** 4.x or later. */
	V4_OR_LATER;

	/**
	 * The Disruptor a class loader sees.
	 * @param classLoader the class loader
	 * @return its major version, or {@link #ABSENT}
	 */
	public static DisruptorVersion of(@Nullable ClassLoader classLoader) {
		if (!isPresent("com.lmax.disruptor.RingBuffer", classLoader)) {
			return ABSENT;
		}
		// Added in Disruptor 4.0.
		return isPresent("com.lmax.disruptor.EventHandlerIdentity", classLoader) ? V4_OR_LATER : V3;
	}

	private static boolean isPresent(String className, @Nullable ClassLoader classLoader) {
		try {
			Class.forName(className, false, classLoader);
			return true;
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return false;
		}
	}

}
