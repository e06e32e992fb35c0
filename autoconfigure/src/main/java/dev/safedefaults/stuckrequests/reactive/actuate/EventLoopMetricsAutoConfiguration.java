package dev.safedefaults.stuckrequests.reactive.actuate;

import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.stuckrequests.StuckRequestsMeters;
import dev.safedefaults.stuckrequests.reactive.EventLoopMeters;
import dev.safedefaults.stuckrequests.reactive.StuckRequestsReactiveAutoConfiguration;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.context.annotation.Bean;

/**
 * With Micrometer, on a reactive web application: the gauges
 * {@code safedefaults.stuck-requests.event-loops-blocked}, the event loops blocked now,
 * and {@code safedefaults.stuck-requests}, the exchanges past the threshold now.
 */
@AutoConfiguration(after = StuckRequestsReactiveAutoConfiguration.class)
@ConditionalOnSafeDefaultsEnabled
@ConditionalOnWebApplication(type = Type.REACTIVE)
@ConditionalOnClass(MeterRegistry.class)
public final class EventLoopMetricsAutoConfiguration {

	/** Name of the gauge. */
	public static final String EVENT_LOOPS_BLOCKED = "safedefaults.stuck-requests.event-loops-blocked";

	/**
	 * Name of the gauge of exchanges past the threshold: the servlet watch's gauge, under
	 * the same name.
	 */
	public static final String STUCK_REQUESTS = "safedefaults.stuck-requests";

	/**
	 * Binds the gauge when the registry binds (after every singleton exists), so the
	 * watch's own conditions need not be repeated here.
	 */
	@Bean
	MeterBinder safeDefaultsEventLoopsMeterBinder(ObjectProvider<EventLoopMeters> meters) {
		return (registry) -> meters.ifAvailable((watch) -> bind(watch, registry));
	}

	@Bean
	MeterBinder safeDefaultsStuckExchangesMeterBinder(ObjectProvider<StuckRequestsMeters> meters) {
		return (registry) -> meters
			.ifAvailable((watch) -> Gauge.builder(STUCK_REQUESTS, watch, StuckRequestsMeters::stuck)
				.description("WebFlux exchanges running longer than safe-defaults.stuck-requests.threshold now")
				.baseUnit("requests")
				.register(registry));
	}

	private static void bind(EventLoopMeters watch, MeterRegistry registry) {
		Gauge.builder(EVENT_LOOPS_BLOCKED, watch, EventLoopMeters::blockedEventLoops)
			.description("Event loops that ran none of their tasks for longer than "
					+ "safe-defaults.stuck-requests.event-loop.blocked-threshold, now")
			.baseUnit("event loops")
			.register(registry);
	}

}
