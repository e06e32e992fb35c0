package dev.safedefaults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.safedefaults.check.FailOn;
import dev.safedefaults.check.FindingCatalogue;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The startup checks. Each feature has its own properties under
 * {@code safe-defaults.<feature>}. The master switch ({@value #ENABLED_PROPERTY}) and the
 * checks' switch ({@value #CHECKS_ENABLED_PROPERTY}) are no fields here: conditions read
 * them (the master switch also before the context exists), never a bound bean, so each is
 * declared once, in additional configuration metadata, and named by its constant.
 */
@ConfigurationProperties("safe-defaults")
public class SafeDefaultsProperties implements InitializingBean {

	/**
	 * The master switch: {@code false} switches off every default, every check and every
	 * report; as a JVM system property, also what starts before Spring. Every reader
	 * names it through this constant.
	 */
	public static final String ENABLED_PROPERTY = "safe-defaults.enabled";

	/**
	 * Whether the startup checks run: read by the conditions of the beans that run
	 * checks, so, like the master switch, declared in additional metadata rather than as
	 * a field.
	 */
	public static final String CHECKS_ENABLED_PROPERTY = "safe-defaults.checks.enabled";

	private final Checks checks = new Checks();

	public Checks getChecks() {
		return this.checks;
	}

	@Override
	public void afterPropertiesSet() {
		PropertyBounds.requireRange("safe-defaults.checks.deferred-timeout", this.checks.getDeferredTimeout(),
				Duration.ofMillis(1), PropertyBounds.MAX_TIMEOUT, "how long a deferred check may run, such as 10s");
		for (String id : this.checks.getDisabled()) {
			PropertyBounds.requireOneOf("safe-defaults.checks.disabled", id, FindingCatalogue.ids(),
					"a safe-defaults finding id", "see the findings catalogue in docs/findings.md");
		}
	}

	/**
	 * The checks that look for the traps the defaults exist to avoid.
	 */
	public static class Checks {

		/**
		 * Finding ids never to report, for example 'checks.failed'. Each must be an id
		 * from the findings catalogue.
		 */
		private List<String> disabled = new ArrayList<>();

		/**
		 * What fails startup: 'none' reports findings only; 'warning' fails startup when
		 * a startup check raises a warning (for a strict test suite or CI). Findings
		 * raised later at runtime never stop the application.
		 */
		private FailOn failOn = FailOn.NONE;

		/**
		 * How long a deferred check (one that needs I/O, such as a database query) may
		 * run before it is reported as 'checks.failed'. From 1ms to 10m.
		 */
		private Duration deferredTimeout = Duration.ofSeconds(10);

		public List<String> getDisabled() {
			return this.disabled;
		}

		public void setDisabled(List<String> disabled) {
			this.disabled = disabled;
		}

		public FailOn getFailOn() {
			return this.failOn;
		}

		public void setFailOn(FailOn failOn) {
			this.failOn = failOn;
		}

		public Duration getDeferredTimeout() {
			return this.deferredTimeout;
		}

		public void setDeferredTimeout(Duration deferredTimeout) {
			this.deferredTimeout = deferredTimeout;
		}

	}

}
