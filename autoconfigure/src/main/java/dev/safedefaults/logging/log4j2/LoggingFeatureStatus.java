package dev.safedefaults.logging.log4j2;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.safedefaults.DurationText;
import dev.safedefaults.check.FeatureStatus;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.logging.DisruptorVersion;
import dev.safedefaults.logging.LogStalls;
import dev.safedefaults.logging.LoggingDefaultsProperties;
import dev.safedefaults.logging.LoggingFeature;
import dev.safedefaults.logging.QueueFullMode;
import dev.safedefaults.logging.stacktrace.StackTraceThrottling;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.async.AsyncLoggerContext;
import org.apache.logging.log4j.util.PropertiesUtil;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.env.Environment;

/**
 * What the logging defaults did: all-async or why not, the queue-full policy, location
 * capture removed, stack traces throttled or why not.
 */
class LoggingFeatureStatus implements FeatureStatusReporter {

	private static final String FEATURE = LoggingFeature.NAME;

	private final LoggingDefaultsProperties properties;

	private final ObjectProvider<LocationCaptureRemover> locationCaptureRemover;

	private final Environment environment;

	private final ObjectProvider<QueueFullPolicyConfigurer> queueFullPolicy;

	private final LogStalls stalls;

	LoggingFeatureStatus(LoggingDefaultsProperties properties,
			ObjectProvider<LocationCaptureRemover> locationCaptureRemover, Environment environment,
			ObjectProvider<QueueFullPolicyConfigurer> queueFullPolicy, LogStalls stalls) {
		this.properties = properties;
		this.locationCaptureRemover = locationCaptureRemover;
		this.environment = environment;
		this.queueFullPolicy = queueFullPolicy;
		this.stalls = stalls;
	}

	@Override
	public FeatureStatus status() {
		if (!Log4jDefaultsPropertySource.JvmLevelSettings.fromJvm().enabled()) {
			return FeatureStatus.off(FEATURE,
					"switched off at JVM level (safe-defaults.logging.enabled=false or safe-defaults.enabled=false)");
		}
		if (!(LogManager.getContext(false) instanceof LoggerContext context)) {
			return FeatureStatus.off(FEATURE, "Log4j2 is not the logging backend (see logging.not-log4j2)");
		}
		List<String> applied = new ArrayList<>();
		if (context instanceof AsyncLoggerContext async) {
			applied.add("all loggers asynchronous, ring buffer of " + async.createRingBufferAdmin().getBufferSize()
					+ " slots");
		}
		else {
			applied.add("not all-async: " + notAsyncReason());
		}
		String policy = PropertiesUtil.getProperties().getStringProperty(Log4jDefaultsPropertySource.QUEUE_FULL_POLICY);
		if (CountingQueueFullPolicy.class.getName().equals(policy)) {
			applied.add("queue full: " + CountingQueueFullPolicy.mode().name().toLowerCase(Locale.ROOT)
					+ " at or below " + CountingQueueFullPolicy.threshold() + ", "
					+ CountingQueueFullPolicy.discardedCount() + " discarded so far");
			QueueFullPolicyConfigurer configurer = this.queueFullPolicy.getIfAvailable();
			if (CountingQueueFullPolicy.mode() == QueueFullMode.DISCARD && configurer != null
					&& configurer.isSevereWaitBounded()) {
				applied.addAll(this.stalls.statusLines());
			}
			else if (CountingQueueFullPolicy.mode() == QueueFullMode.BLOCK) {
				applied.add("every event waits for room for as long as the ring buffer stays full");
			}
		}
		else {
			applied.add("queue-full policy overridden: " + policy);
		}
		LocationCaptureRemover remover = this.locationCaptureRemover.getIfAvailable();
		if (remover != null) {
			applied.add("location capture removed from " + remover.replacedCount() + " logging.level logger(s)");
		}
		applied.add(stackTraces());
		if (!this.properties.isEnabled()) {
			return new FeatureStatus(FEATURE, false, applied,
					"safe-defaults.logging.enabled=false in application properties: discarding and the location fix "
							+ "are off; all-async needs the JVM-level switch");
		}
		return FeatureStatus.applied(FEATURE, applied);
	}

	private String stackTraces() {
		String word = this.environment.getProperty(StackTraceThrottling.EXCEPTION_CONVERSION_WORD);
		if (word != null && word.contains(StackTraceThrottling.CONVERSION_WORD)) {
			StackTraceThrottling.Settings settings = StackTraceThrottling.settings();
			return "stack traces: the first " + settings.firstN() + " of a kind per "
					+ DurationText.of(settings.interval()) + " in full, then one line ("
					+ StackTraceThrottling.elidedCount() + " elided so far)";
		}
		if (!this.properties.isEnabled()) {
			return "stack traces in full: safe-defaults.logging.enabled=false";
		}
		if (!this.properties.getStackTraces().isEnabled()) {
			return "stack traces in full: safe-defaults.logging.stack-traces.enabled=false";
		}
		return "stack traces in full: logging.exception-conversion-word "
				+ ((word != null) ? "is " + word : "is not set");
	}

	private String notAsyncReason() {
		DisruptorVersion disruptor = DisruptorVersion.of(getClass().getClassLoader());
		if (disruptor == DisruptorVersion.ABSENT) {
			return "the LMAX Disruptor is not on the class path";
		}
		if (disruptor == DisruptorVersion.V4_OR_LATER) {
			return "Disruptor 4.x loses events with Log4j 2.25 (pin 3.4.4)";
		}
		return "the context selector was overridden (Log4jContextSelector / log4j2.contextSelector)";
	}

}
