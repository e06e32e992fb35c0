package dev.safedefaults.runtime.storm.actuate;

import dev.safedefaults.runtime.storm.RuntimeStormDetector;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * {@code safedefaults.runtime.throwables}: the JVM's cumulative count of created
 * throwables, as the flight recorder reports it (a function counter: the monitoring
 * system derives the rate). Not registered without a usable flight recorder.
 */
public class RuntimeMeterBinder implements MeterBinder {

	/** Name of the throwables counter. */
	public static final String THROWABLES = "safedefaults.runtime.throwables";

	private final RuntimeStormDetector detector;

	/**
	 * Creates the binder.
	 * @param detector the detector whose count is read
	 */
	public RuntimeMeterBinder(RuntimeStormDetector detector) {
		this.detector = detector;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		if (!this.detector.isFlightRecorderAvailable()) {
			return;
		}
		FunctionCounter.builder(THROWABLES, this.detector, RuntimeStormDetector::throwables)
			.description("Throwables the JVM has created, caught or not (an Error counts twice), "
					+ "read from the flight recorder once per sampling period")
			.baseUnit("throwables")
			.register(registry);
	}

}
