package dev.safedefaults.logging.logback;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.safedefaults.check.FeatureStatus;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.logging.LoggingFeature;

import org.springframework.beans.factory.ObjectProvider;

/**
 * What the logging defaults did on Logback: which appenders were wrapped, the queue-full
 * behaviour and its count.
 */
class LogbackFeatureStatus implements FeatureStatusReporter {

	/** The logging feature's name, the same on either logging system. */
	static final String FEATURE = LoggingFeature.NAME;

	private final ObjectProvider<LogbackAsyncWrapping> wrapping;

	LogbackFeatureStatus(ObjectProvider<LogbackAsyncWrapping> wrapping) {
		this.wrapping = wrapping;
	}

	@Override
	public FeatureStatus status() {
		LogbackAsyncWrapping wrapping = this.wrapping.getIfAvailable();
		if (wrapping == null) {
			return FeatureStatus.off(FEATURE,
					"safe-defaults.logging.enabled=false: the Logback appenders are left synchronous");
		}
		List<String> applied = new ArrayList<>();
		List<String> names = wrapping.wrappedNames();
		WrappingSettings settings = wrapping.settings();
		applied.add("Logback: " + names.size() + " appender(s) " + names + " wrapped behind bounded queues of "
				+ settings.queueCapacity() + " events, no caller data");
		applied.add("queue full: "
				+ (settings.discard()
						? "discard at or below " + settings.threshold().toString().toUpperCase(Locale.ROOT) : "block")
				+ ", " + settings.discardedCount() + " discarded so far");
		List<String> gated = wrapping.gatedNames();
		if (!gated.isEmpty()) {
			applied.add("the application's own asynchronous appender(s) " + gated + " kept, behind a gate that "
					+ (settings.discard() ? "bounds how long WARN and ERROR wait for their full queues"
							: "lets every event wait (block)"));
		}
		if (settings.discard()) {
			applied.addAll(settings.stalls().statusLines());
		}
		else {
			applied.add("every event waits for room for as long as its queue stays full");
		}
		return FeatureStatus.applied(FEATURE, applied);
	}

}
