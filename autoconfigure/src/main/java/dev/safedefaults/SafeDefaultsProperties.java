package dev.safedefaults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.safedefaults.check.FailOn;
import dev.safedefaults.check.FindingCatalogue;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The master switch and the startup checks. Each feature has its own properties under
 * {@code safe-defaults.<feature>}.
 */
@ConfigurationProperties("safe-defaults")
public class SafeDefaultsProperties implements InitializingBean {

	/**
	 * Whether safe-defaults is on at all. False switches off every default, every check and
	 * every report. As a JVM system property it also switches off what starts before Spring.
	 */
	private boolean enabled = true;

	private final Checks checks = new Checks();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public Checks getChecks() {
		return this.checks;
	}

	@Override
	public void afterPropertiesSet() {
		PropertyBounds.requireRange("safe-defaults.checks.deferred-timeout", this.checks.getDeferredTimeout(),
				Duration.ofMillis(1), PropertyBounds.MAX_TIMEOUT, "how long a deferred check may run, such as 10s");
		for (String id : this.checks.getDisabled()) {
			PropertyBounds.requireOneOf("safe-defaults.checks.disabled", id, FindingCatalogue.ids(),
					"a safe-defaults finding id", "see the README's findings catalogue");
		}
	}

	/**
	 * The checks that look for the traps the defaults exist to avoid.
	 */
	public static class Checks {

		/**
		 * Whether to run the startup checks. A feature's own switch turns off its default,
		 * not its checks: silence single checks by id with 'disabled'.
		 */
		private boolean enabled = true;

		/**
		 * Finding ids never to report, for example 'checks.failed'. Each must be an id from
		 * the findings catalogue.
		 */
		private List<String> disabled = new ArrayList<>();

		/**
		 * What fails startup: 'none' reports findings only; 'warning' fails startup when a
		 * startup check raises a warning (for a strict test suite or CI). Findings raised
		 * later at runtime never stop the application.
		 */
		private FailOn failOn = FailOn.NONE;

		/**
		 * How long a deferred check (one that needs I/O, such as a database query) may run
		 * before it is reported as 'checks.failed'. From 1ms to 10m.
		 */
		private Duration deferredTimeout = Duration.ofSeconds(10);

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

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
