package dev.safedefaults.stuckrequests.reactive;

import java.util.ArrayList;
import java.util.List;

import dev.safedefaults.DurationText;
import dev.safedefaults.check.FeatureStatus;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.stuckrequests.StuckRequestsProperties;

import org.springframework.beans.factory.ObjectProvider;

/**
 * Reports the {@code stuck-requests} feature on a reactive web application: the event
 * loops watched and their bound, and what was seen.
 */
final class ReactiveStuckRequestsFeatureStatus implements FeatureStatusReporter {

	static final String FEATURE = "stuck-requests";

	private final StuckRequestsProperties properties;

	private final EventLoopProperties eventLoops;

	private final ObjectProvider<EventLoopWatch> watches;

	ReactiveStuckRequestsFeatureStatus(StuckRequestsProperties properties, EventLoopProperties eventLoops,
			ObjectProvider<EventLoopWatch> watches) {
		this.properties = properties;
		this.eventLoops = eventLoops;
		this.watches = watches;
	}

	@Override
	public FeatureStatus status() {
		if (!this.properties.isEnabled()) {
			return FeatureStatus.off(FEATURE,
					"safe-defaults.stuck-requests.enabled is false: a blocked event loop is not named");
		}
		EventLoopWatch watch = this.watches.getIfAvailable();
		if (watch == null) {
			return FeatureStatus.off(FEATURE,
					this.eventLoops.isEnabled() ? "no Reactor Netty or no FindingsStore bean: no event loop is watched"
							: EventLoopProperties.ENABLED_PROPERTY + " is false: a blocked event loop is not named");
		}
		List<String> appliedTo = new ArrayList<>();
		String bound = DurationText.of(watch.threshold());
		appliedTo.add(watch.watched() + " Reactor Netty event loops, each with a heartbeat every "
				+ DurationText.of(watch.heartbeatPeriod()) + "; one that runs none of its tasks for longer than "
				+ bound + " is named with the frame that blocks it");
		return new FeatureStatus(FEATURE, true, appliedTo, watch.describe()).withScope("event loops " + bound);
	}

}
