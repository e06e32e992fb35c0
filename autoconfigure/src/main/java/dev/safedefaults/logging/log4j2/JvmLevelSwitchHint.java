package dev.safedefaults.logging.log4j2;

import java.util.Locale;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.InitializingBean;

/**
 * Says, in one WARN line, what a switch set in application properties cannot turn off:
 * all-async logging and the ring buffer size are decided when Log4j starts, before the
 * application context exists, so only the JVM-level switch turns them off. Logged for
 * {@code safe-defaults.logging.enabled=false} and for {@code safe-defaults.enabled=false}
 * alike, and only when the JVM-level switch left the Log4j defaults on.
 */
public final class JvmLevelSwitchHint implements InitializingBean {

	private static final Log logger = LogFactory.getLog(JvmLevelSwitchHint.class);

	private final String property;

	private final boolean jvmLevelEnabled;

	/**
	 * Creates the hint.
	 * @param property the switch set in application properties, for example
	 * {@code safe-defaults.enabled}
	 * @param jvmLevelEnabled whether the JVM-level switch left the Log4j defaults on
	 */
	public JvmLevelSwitchHint(String property, boolean jvmLevelEnabled) {
		this.property = property;
		this.jvmLevelEnabled = jvmLevelEnabled;
	}

	/**
	 * The hint.
	 * @return the line, or {@code null} when the JVM-level switch is already off
	 */
	public @Nullable String message() {
		if (!this.jvmLevelEnabled) {
			return null;
		}
		String environmentVariable = this.property.replace("-", "").replace('.', '_').toUpperCase(Locale.ROOT);
		return this.property + "=false in application properties switched off what can change after start; "
				+ "all-async logging and the ring buffer size were set when Log4j started and need the JVM-level "
				+ "switch: -D" + this.property + "=false or " + environmentVariable + "=false";
	}

	@Override
	public void afterPropertiesSet() {
		String message = message();
		if (message != null) {
			logger.warn(message);
		}
	}

}
