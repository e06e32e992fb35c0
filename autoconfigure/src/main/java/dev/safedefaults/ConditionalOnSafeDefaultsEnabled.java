package dev.safedefaults;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;

/**
 * Matches unless the master switch {@code safe-defaults.enabled} is {@code false}. Every
 * safe-defaults auto-configuration carries it.
 */
@Target({ ElementType.TYPE, ElementType.METHOD })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@ConditionalOnBooleanProperty(name = SafeDefaultsProperties.ENABLED_PROPERTY, matchIfMissing = true)
public @interface ConditionalOnSafeDefaultsEnabled {

}
