package dev.safedefaults.logging.logback;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import dev.safedefaults.logging.LogbackLoggingSystemChoice;

import org.springframework.context.annotation.Conditional;

/**
 * Matches when Logback runs as Boot's logging system
 * ({@link LogbackLoggingSystemChoice#isRunning}): Boot chooses it and SLF4J is bound to
 * it. Every auto-configuration of the Logback route carries it, so that they apply or
 * back off together.
 */
@Target({ ElementType.TYPE, ElementType.METHOD })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Conditional(OnLogbackLoggingSystemCondition.class)
public @interface ConditionalOnLogbackLoggingSystem {

}
