package dev.safedefaults.logging;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.safedefaults.check.Check;
import dev.safedefaults.check.Finding;
import dev.safedefaults.logging.stacktraces.FullStackTraceRenderers;
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
 * Reads the running Log4j configuration for the traps of incidents 2, 3 and 6: synchronous
 * loggers, two queues, caller location, a blocking queue-full policy, formatting on the
 * background thread, layouts printing every stack trace in full. Re-run whenever Log4j is
 * reconfigured.
 */
public class Log4jConfigurationCheck implements Check {

	/** The source name of its findings. */
	public static final String NAME = "logging.log4j-configuration";

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
			findings.add(Finding.warning("logging.sync-loggers", String.join(", ", syncConfigs),
					"These loggers write on the calling thread: every log call waits for the appender, "
							+ "so a slow disk or log shipper slows requests (incident 2).",
					"Use the starter's all-async default: remove Log4jContextSelector overrides and keep the "
							+ "LMAX Disruptor 3.x on the class path (or start without -Dsafe-defaults.logging.enabled=false)."));
		}
		if (asyncContext && !asyncConfigs.isEmpty()) {
			findings.add(Finding.warning("logging.two-queues", String.join(", ", asyncConfigs),
					"AsyncLogger/AsyncRoot elements inside an all-async context: each event crosses two ring "
							+ "buffers and two background threads.",
					"Replace <AsyncLogger>/<AsyncRoot> with <Logger>/<Root>; all loggers are already asynchronous."));
		}
		for (Map.Entry<String, LoggerConfig> entry : loggers.entrySet()) {
			LoggerConfig logger = entry.getValue();
			boolean computesLocation = (logger instanceof AsyncLoggerConfig || asyncContext)
					? logger.isIncludeLocation() : logger.requiresLocation();
			if (computesLocation) {
				findings.add(Finding.warning("logging.include-location", entry.getKey(),
						"This logger captures the caller's location: a stack walk per log event (~40% of the "
								+ "CPU in incident 3).",
						"Set includeLocation=\"false\" on this logger, and drop %C %F %l %L %M from layouts."));
			}
		}
		for (Appender appender : config.getAppenders().values()) {
			Layout<?> layout = appender.getLayout();
			Set<String> converters = (layout instanceof PatternLayout pattern)
					? LocationConverters.find(pattern.getConversionPattern()) : Set.of();
			if (!converters.isEmpty() || (layout instanceof LocationAware aware && aware.requiresLocation())) {
				String which = converters.isEmpty() ? "its layout" : String.join(" ", converters);
				findings.add(Finding.warning("logging.location-pattern", appender.getName(),
						"The layout asks for the caller's location (" + which
								+ "): a stack walk per event where location is captured, '?' where it is not.",
						"Remove " + which + " from the layout; log the class with %c (the logger name)."));
			}
			if (layout instanceof PatternLayout pattern) {
				FullStackTraceRenderers.find(pattern)
					.ifPresent((how) -> findings.add(Finding.info("logging.full-stack-traces", appender.getName(),
							"The layout prints every stack trace in full (" + how + "): in an error "
									+ "storm the one background thread rendering 50-100-frame traces falls behind, and "
									+ "the backlog outlives the storm (incident 6).",
							"Render throwables with %throttledEx: keep Boot's ${sys:LOG_EXCEPTION_CONVERSION_WORD} "
									+ "in the pattern (the starter makes it %throttledEx) or write %throttledEx where "
									+ "the pattern has %ex, %xEx, %rEx, %wEx or %xwEx.")));
			}
		}
		if ((asyncContext || !asyncConfigs.isEmpty()) && queueFullPolicyBlocks()) {
			findings.add(Finding.warning("logging.blocking-queue-full", "log4j2.asyncQueueFullPolicy",
					"When the async ring buffer is full, threads that log INFO wait for the background thread "
							+ "(incident 2: request threads blocked, 6,033 vs 8,035 QPS).",
					"Let the starter's policy discard INFO and below under pressure: remove the "
							+ "log4j2.asyncQueueFullPolicy override, or set safe-defaults.logging.queue-full-policy=discard."));
		}
		if (PropertiesUtil.getProperties().getBooleanProperty("log4j2.formatMsgAsync", false)) {
			findings.add(Finding.warning("logging.format-msg-async", "log4j2.formatMsgAsync",
					"Messages are formatted on the one background thread: a mutable argument can be logged "
							+ "in a later state, and all formatting competes for that thread.",
					"Remove log4j2.formatMsgAsync=true."));
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

	private static boolean queueFullPolicyBlocks() {
		String policy = PropertiesUtil.getProperties().getStringProperty(Log4jDefaultsPropertySource.QUEUE_FULL_POLICY);
		if (policy == null || policy.equalsIgnoreCase("Default")
				|| policy.equals(DefaultAsyncQueueFullPolicy.class.getName())
				|| policy.equals(DefaultAsyncQueueFullPolicy.class.getSimpleName())) {
			return true;
		}
		if (policy.equals(CountingQueueFullPolicy.class.getName())) {
			return CountingQueueFullPolicy.mode() == CountingQueueFullPolicy.Mode.BLOCK;
		}
		// Log4j's own Discard policy, or a custom one we cannot judge.
		return false;
	}

}
