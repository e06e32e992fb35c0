package dev.safedefaults.logging.log4j2;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.safedefaults.check.Check;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingType;
import dev.safedefaults.logging.LoggingFindings;
import dev.safedefaults.logging.QueueFullMode;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.Layout;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.async.AsyncLoggerConfig;
import org.apache.logging.log4j.core.async.AsyncLoggerContext;
import org.apache.logging.log4j.core.async.DefaultAsyncQueueFullPolicy;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.impl.LocationAware;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.apache.logging.log4j.util.PropertiesUtil;

/**
 * Reads the running Log4j configuration for the traps of incidents 2, 3 and 6:
 * synchronous loggers, two queues, caller location, a blocking queue-full policy,
 * formatting on the background thread, layouts printing every stack trace in full. Re-run
 * whenever Log4j is reconfigured.
 */
public class Log4jConfigurationCheck implements Check {

	/** The source name of its findings. */
	public static final String NAME = "logging.log4j-configuration";

	private final boolean starterEnabled;

	/**
	 * Creates the check for an application where the logging feature is on.
	 */
	public Log4jConfigurationCheck() {
		this(true);
	}

	/**
	 * Creates the check.
	 * @param starterEnabled whether {@code safe-defaults.logging.enabled} is true in the
	 * application's properties (its findings then tell a fix that is true for it)
	 */
	public Log4jConfigurationCheck(boolean starterEnabled) {
		this.starterEnabled = starterEnabled;
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public List<Finding> run() {
		if (!(LogManager.getContext(false) instanceof LoggerContext context)) {
			// Log4j is not the logging backend: LoggingSystemCheck reports it.
			return List.of();
		}
		return check(context);
	}

	/**
	 * Checks one logger context.
	 * @param context the context
	 * @return the findings
	 */
	public List<Finding> check(LoggerContext context) {
		Configuration config = context.getConfiguration();
		boolean asyncContext = context instanceof AsyncLoggerContext;
		Map<String, LoggerConfig> loggers = loggerConfigs(config);
		List<String> asyncConfigs = new ArrayList<>();
		List<String> syncConfigs = new ArrayList<>();
		for (Map.Entry<String, LoggerConfig> entry : loggers.entrySet()) {
			if (entry.getValue() instanceof AsyncLoggerConfig) {
				asyncConfigs.add(entry.getKey());
			}
			else if (!entry.getValue().getAppenders().isEmpty()) {
				syncConfigs.add(entry.getKey());
			}
		}
		List<Finding> findings = new ArrayList<>();
		if (!asyncContext && !syncConfigs.isEmpty()) {
			findings.add(LoggingFindings.SYNC_LOGGERS.raise(String.join(", ", syncConfigs)));
		}
		if (asyncContext && !asyncConfigs.isEmpty()) {
			findings.add(LoggingFindings.TWO_QUEUES.raise(String.join(", ", asyncConfigs)));
		}
		for (Map.Entry<String, LoggerConfig> entry : loggers.entrySet()) {
			LoggerConfig logger = entry.getValue();
			boolean computesLocation = (logger instanceof AsyncLoggerConfig || asyncContext)
					? logger.isIncludeLocation() : logger.requiresLocation();
			if (computesLocation) {
				findings.add(includeLocation(logger).raise(entry.getKey(), entry.getKey()));
			}
		}
		for (Appender appender : config.getAppenders().values()) {
			Layout<?> layout = appender.getLayout();
			Set<String> converters = (layout instanceof PatternLayout pattern)
					? LocationConverters.find(pattern.getConversionPattern()) : Set.of();
			if (!converters.isEmpty() || (layout instanceof LocationAware aware && aware.requiresLocation())) {
				String which = converters.isEmpty() ? "its layout" : String.join(" ", converters);
				findings.add(LoggingFindings.LOCATION_PATTERN.raise(appender.getName(), which));
			}
			if (layout instanceof PatternLayout pattern) {
				FullStackTraceRenderers.find(pattern)
					.ifPresent((how) -> findings.add(LoggingFindings.FULL_STACK_TRACES.raise(appender.getName(), how)));
			}
		}
		if (asyncContext || !asyncConfigs.isEmpty()) {
			blockingQueueFull().ifPresent(findings::add);
		}
		if (PropertiesUtil.getProperties().getBooleanProperty("log4j2.formatMsgAsync", false)) {
			findings.add(LoggingFindings.FORMAT_MSG_ASYNC.raise("log4j2.formatMsgAsync"));
		}
		return findings;
	}

	private static Map<String, LoggerConfig> loggerConfigs(Configuration config) {
		Map<String, LoggerConfig> loggers = new LinkedHashMap<>();
		loggers.put("root", config.getRootLogger());
		config.getLoggers().forEach((name, logger) -> {
			if (!name.isEmpty()) {
				loggers.put(name, logger);
			}
		});
		return loggers;
	}

	/**
	 * The blocking queue-full finding, told the way the policy came to block: the user's
	 * own policy, Log4j's default with the starter off at JVM level, or the starter's
	 * policy in block mode (its property, or the feature switched off in application
	 * properties).
	 */
	private Optional<Finding> blockingQueueFull() {
		String subject = Log4jDefaultsPropertySource.QUEUE_FULL_POLICY;
		String policy = PropertiesUtil.getProperties().getStringProperty(subject);
		if (policy == null) {
			return Optional.of(LoggingFindings.BLOCKING_QUEUE_FULL_BECAUSE_JVM_LEVEL_OFF.raise(subject));
		}
		if (policy.equalsIgnoreCase("Default") || policy.equals(DefaultAsyncQueueFullPolicy.class.getName())
				|| policy.equals(DefaultAsyncQueueFullPolicy.class.getSimpleName())) {
			return Optional.of(LoggingFindings.BLOCKING_QUEUE_FULL.raise(subject, policy));
		}
		if (policy.equals(CountingQueueFullPolicy.class.getName())
				&& CountingQueueFullPolicy.mode() == QueueFullMode.BLOCK) {
			return Optional
				.of(this.starterEnabled ? LoggingFindings.BLOCKING_QUEUE_FULL_BECAUSE_BLOCK_MODE.raise(subject)
						: LoggingFindings.BLOCKING_QUEUE_FULL_BECAUSE_STARTER_OFF.raise(subject));
		}
		// Log4j's own Discard policy, or a custom one we cannot judge.
		return Optional.empty();
	}

	/**
	 * The location finding, told the way the logger came to capture location: declared in
	 * the user's Log4j configuration, or created by Boot from {@code logging.level.*}.
	 */
	private FindingType includeLocation(LoggerConfig logger) {
		if (!LocationCaptureRemover.isBootLevelConfig(logger)) {
			return LoggingFindings.INCLUDE_LOCATION;
		}
		return this.starterEnabled ? LoggingFindings.INCLUDE_LOCATION_BECAUSE_LEVEL_PROPERTY
				: LoggingFindings.INCLUDE_LOCATION_BECAUSE_LEVEL_PROPERTY_AND_STARTER_OFF;
	}

}
