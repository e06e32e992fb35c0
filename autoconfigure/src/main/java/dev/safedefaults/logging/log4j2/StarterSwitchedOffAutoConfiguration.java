package dev.safedefaults.logging.log4j2;

import dev.safedefaults.SafeDefaultsProperties;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/**
 * Active only when {@code safe-defaults.enabled=false} is set where Spring reads it:
 * every other safe-defaults auto-configuration is then off, but Log4j's all-async context
 * was already chosen before the application context existed. It logs the same JVM-level
 * hint as {@code safe-defaults.logging.enabled=false} does.
 */
@AutoConfiguration
@ConditionalOnBooleanProperty(name = SafeDefaultsProperties.ENABLED_PROPERTY, havingValue = false)
@ConditionalOnClass(name = "org.apache.logging.log4j.core.LoggerContext")
public final class StarterSwitchedOffAutoConfiguration {

	@Bean
	JvmLevelSwitchHint safeDefaultsJvmLevelSwitchHint() {
		return new JvmLevelSwitchHint(SafeDefaultsProperties.ENABLED_PROPERTY,
				Log4jDefaultsPropertySource.JvmLevelSettings.fromJvm().enabled());
	}

}
