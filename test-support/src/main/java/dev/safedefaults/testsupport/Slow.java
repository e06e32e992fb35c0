package dev.safedefaults.testsupport;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Tag;

/**
 * Marks a test class or method that needs seconds, not milliseconds: a real database, a
 * real process, JFR or timing waits. {@code ./mvnw -B verify -Pfast} leaves them out; the
 * plain {@code ./mvnw -B verify} runs them.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.TYPE, ElementType.METHOD })
@Tag(Slow.TAG)
public @interface Slow {

	/** The JUnit tag, for {@code excludedGroups}. */
	String TAG = "slow";

}
