package dev.safedefaults.check.actuate;

import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.check.Severity;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * The gauge {@code safedefaults.findings}, tagged {@code severity} = {@code info} |
 * {@code warning}: how many findings are current.
 */
public class FindingsMeterBinder implements MeterBinder {

	/** The gauge's name. */
	public static final String METRIC_NAME = "safedefaults.findings";

	private final FindingsStore store;

	/**
	 * Creates the binder.
	 * @param store the findings store
	 */
	public FindingsMeterBinder(FindingsStore store) {
		this.store = store;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		for (Severity severity : Severity.values()) {
			Gauge.builder(METRIC_NAME, this.store, (store) -> store.count(severity))
				.tag("severity", severity.name().toLowerCase(java.util.Locale.ROOT))
				.description("Current safe-defaults findings")
				.register(registry);
		}
	}

}
