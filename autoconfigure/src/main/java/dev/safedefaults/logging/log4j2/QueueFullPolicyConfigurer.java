package dev.safedefaults.logging.log4j2;

import dev.safedefaults.logging.LogStalls;
import dev.safedefaults.logging.LoggingDefaultsProperties;
import dev.safedefaults.logging.LoggingDefaultsSwitch;
import dev.safedefaults.logging.QueueFullMode;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.LoggerContext;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;

/**
 * Applies {@code safe-defaults.logging.queue-full-policy} and {@code discard-threshold}
 * to the running {@link CountingQueueFullPolicy}, as this application context's settings
 * (with their own count of discards, and the bounded wait of WARN and ERROR events on its
 * ring buffer, {@link SevereEventWait}) until it closes. With
 * {@code safe-defaults.logging.enabled=false} in application properties it switches
 * discarding off and says, in one line, what only the JVM-level switch can turn off.
 */
public class QueueFullPolicyConfigurer implements DisposableBean {

	private static final Log logger = LogFactory.getLog(QueueFullPolicyConfigurer.class);

	/** The ring buffer as the findings, the endpoint and the summary line name it. */
	static final String OUTPUT_NAME = "Log4j's async ring buffer";

	private static final Log stallLogger = LogFactory.getLog(LogStalls.class);

	private final CountingQueueFullPolicy.Settings settings;

	private final @Nullable SevereEventWait severe;

	/**
	 * Applies the settings.
	 * @param properties the logging properties
	 * @param jvmLevelEnabled whether the JVM-level switch left the Log4j defaults on
	 * @param context the Log4j context whose ring buffer WARN and ERROR events wait on
	 * @param stalls the application context's stalls, which bound that wait
	 */
	QueueFullPolicyConfigurer(LoggingDefaultsProperties properties, boolean jvmLevelEnabled, LoggerContext context,
			LogStalls stalls) {
		Level threshold = Level.toLevel(properties.getDiscardThreshold().name());
		RingBufferBacklog ring = RingBufferBacklog.of(context);
		this.severe = (properties.isEnabled() && ring != null)
				? new SevereEventWait(ring, stalls.output(OUTPUT_NAME), stallLogger::warn) : null;
		if (properties.isEnabled()) {
			this.settings = CountingQueueFullPolicy.register(properties.getQueueFullPolicy(), threshold, this.severe);
		}
		else {
			this.settings = CountingQueueFullPolicy.register(QueueFullMode.BLOCK, threshold);
			new JvmLevelSwitchHint(LoggingDefaultsSwitch.ENABLED_PROPERTY, jvmLevelEnabled).afterPropertiesSet();
		}
		if (properties.getRingBufferSize() != null
				&& Log4jDefaultsPropertySource.JvmLevelSettings.fromJvm().ringBufferSize() == null) {
			logger.warn("safe-defaults.logging.ring-buffer-size is set in application properties, where it has no "
					+ "effect: the ring buffer is allocated when Log4j starts. Set it as a JVM system property "
					+ "(-Dsafe-defaults.logging.ring-buffer-size) or SAFEDEFAULTS_LOGGING_RINGBUFFERSIZE");
		}
	}

	/**
	 * How many events this application context's settings discarded.
	 * @return the count
	 */
	public long discardedCount() {
		return this.settings.discardedCount();
	}

	/**
	 * Whether WARN and ERROR events wait a bounded time on this context's ring buffer.
	 * @return false when the ring buffer could not be reached (not all-async)
	 */
	public boolean isSevereWaitBounded() {
		return this.severe != null;
	}

	@Override
	public void destroy() {
		CountingQueueFullPolicy.unregister(this.settings);
		if (this.severe != null) {
			this.severe.close();
		}
	}

}
