package dev.safedefaults.testsupport;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Tag;

/**
 * Marks a test class, or a test method, that exercises what the JDK itself provides to
 * the starter: JFR event streaming and the threads' allocation counters (the runtime
 * detectors), the LMAX Disruptor's use of {@code sun.misc.Unsafe} (every log call on the
 * Log4j2 route), shutdown hooks, signals and {@code Runtime.halt} (the bounded stop),
 * stack walking (the throttled stack traces). These classes run once more on JDK 25 (the
 * failsafe execution {@code jdk25}); the others (the embedded database's process and
 * login, secrets in what the starter writes, property handling, the workload harness)
 * test nothing a JDK changes and run on the baseline JDK only, which keeps CI within its
 * time. On a method, only that method of its class runs once more: where the class's
 * other methods exercise the same JDK mechanisms again.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.TYPE, ElementType.METHOD })
@Tag(OnEveryJdk.TAG)
public @interface OnEveryJdk {

	/** The JUnit tag, for the JDK 25 execution's {@code groups}. */
	String TAG = "on-every-jdk";

}
