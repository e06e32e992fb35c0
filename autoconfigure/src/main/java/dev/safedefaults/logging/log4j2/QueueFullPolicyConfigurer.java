package dev.safedefaults.logging.log4j2;

import dev.safedefaults.logging.LoggingDefaultsProperties;
import dev.safedefaults.logging.LoggingDefaultsSwitch;
import dev.safedefaults.logging.QueueFullMode;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.logging.log4j.Level;

import org.springframework.beans.factory.DisposableBean;

/**
 * Applies {@code safe-defaults.logging.queue-full-policy} and {@code discard-threshold}
 * to the running {@link CountingQueueFullPolicy}, as this application context's settings
 * (with their own count of discards) until it closes. With
 * {@code safe-defaults.logging.enabled=false} in application properties it switches
 * discarding off and says, in one line, what only the JVM-level switch can turn off.
 */
public class QueueFullPolicyConfigurer implements DisposableBean {

	private static final Log logger = LogFactory.getLog(QueueFullPolicyConfigurer.class);

	private final CountingQueueFullPolicy.Settings settings;

	/**
	 * Applies the settings.
	 * @param properties the logging properties
	 * @param jvmLevelEnabled whether the JVM-level switch left the Log4j defaults on
	 */
	public QueueFullPolicyConfigurer(LoggingDefaultsProperties properties, boolean jvmLevelEnabled) {
		Level threshold = Level.toLevel(properties.getDiscardThreshold().name());
		if (properties.isEnabled()) {
			this.settings = CountingQueueFullPolicy.register(properties.getQueueFullPolicy(), threshold);
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

	@Override
	public void destroy() {
		CountingQueueFullPolicy.unregister(this.settings);
	}

}
