package dev.safedefaults.stuckrequests.actuate;

import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.stuckrequests.StuckRequestsAutoConfiguration;
import dev.safedefaults.stuckrequests.StuckRequestsMeters;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.context.annotation.Bean;

/**
 * With Micrometer: the gauge {@code safedefaults.stuck-requests}, the requests running
 * longer than the threshold now; with a deadline, the counter
 * {@code safedefaults.stuck-requests.interrupts}, the requests whose thread it
 * interrupted, tagged by the kind of wait.
 */
@AutoConfiguration(after = StuckRequestsAutoConfiguration.class)
@ConditionalOnSafeDefaultsEnabled
@ConditionalOnWebApplication(type = Type.SERVLET)
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBooleanProperty(name = "safe-defaults.stuck-requests.enabled", matchIfMissing = true)
public final class StuckRequestsMetricsAutoConfiguration {

	/** Name of the gauge. */
	public static final String STUCK_REQUESTS = "safedefaults.stuck-requests";

	/** Name of the counter of interrupts. */
	public static final String INTERRUPTS = "safedefaults.stuck-requests.interrupts";

	/**
	 * Binds the gauge when the registry binds (after every singleton exists), so the
	 * watch's own conditions need not be repeated here.
	 */
	@Bean
	MeterBinder safeDefaultsStuckRequestsMeterBinder(ObjectProvider<StuckRequestsMeters> meters) {
		return (registry) -> meters.ifAvailable((watch) -> bind(watch, registry));
	}

	private static void bind(StuckRequestsMeters watch, MeterRegistry registry) {
		Gauge.builder(STUCK_REQUESTS, watch, StuckRequestsMeters::stuck)
			.description("Servlet requests running longer than safe-defaults.stuck-requests.threshold now")
			.baseUnit("requests")
			.register(registry);
		for (String kind : watch.interrupts().keySet()) {
			FunctionCounter
				.builder(INTERRUPTS, watch, (meters) -> meters.interrupts().getOrDefault(kind, 0L).doubleValue())
				.description("Requests whose thread safe-defaults.stuck-requests.interrupt-after interrupted, by the "
						+ "kind of wait they were in")
				.baseUnit("requests")
				.tag("kind", kind)
				.register(registry);
		}
	}

}
