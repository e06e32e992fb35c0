package dev.safedefaults.check;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Every finding id safe-defaults can raise, whether or not the feature that raises it is
 * active in this application. Ids are public API: {@code safe-defaults.checks.disabled} is
 * validated against this list, and the README's findings catalogue documents each one.
 * A feature that adds a finding adds its entry here the same day.
 */
public final class FindingCatalogue {

	/**
	 * One documented finding id.
	 *
	 * @param id the stable dotted id
	 * @param severity the severity it is raised with
	 * @param meaning what it means
	 * @param fix how to fix it
	 */
	public record Entry(String id, Severity severity, String meaning, String fix) {
	}

	/** Id of the finding raised when a check itself fails or times out. */
	public static final String CHECKS_FAILED = "checks.failed";

	private static final Map<String, Entry> ENTRIES = index(List.of(
			new Entry(CHECKS_FAILED, Severity.WARNING,
					"A check threw an exception or did not finish in time; what it looks for was not checked.",
					"Report it with the exception named in the message; silence it with "
							+ "safe-defaults.checks.disabled=checks.failed."),
			new Entry("logging.not-log4j2", Severity.WARNING,
					"Log4j2 is not the logging system (Logback won), so none of the logging defaults apply.",
					"Exclude spring-boot-starter-logging from spring-boot-starter in dependencyManagement."),
			new Entry("logging.disruptor-4", Severity.WARNING,
					"LMAX Disruptor 4.x is on the class path: with Log4j 2.25 it loses events, WARN and ERROR included and uncounted, whenever the ring buffer is full; the starter leaves all-async off.",
					"Pin com.lmax:disruptor to 3.4.4."),
			new Entry("logging.sync-loggers", Severity.WARNING,
					"Loggers write on the calling thread (no all-async context): every log call waits for the appender (incident 2).",
					"Keep the starter's all-async default: no Log4jContextSelector override, Disruptor 3.x on the class path."),
			new Entry("logging.two-queues", Severity.WARNING,
					"AsyncLogger/AsyncRoot elements inside the all-async context: each event crosses two ring buffers and two threads.",
					"Replace <AsyncLogger>/<AsyncRoot> with <Logger>/<Root>."),
			new Entry("logging.include-location", Severity.WARNING,
					"A logger captures the caller's location: a stack walk per log event (~40% of the CPU in incident 3).",
					"Set includeLocation=\"false\" on that logger."),
			new Entry("logging.location-pattern", Severity.WARNING,
					"An appender's layout asks for the caller's location (%C %F %l %L %M, nested ones included): a stack walk per event, or '?' where location is not captured.",
					"Remove the location converters; log the logger name with %c."),
			new Entry("logging.blocking-queue-full", Severity.WARNING,
					"The queue-full policy blocks: when the ring buffer is full, threads logging INFO wait for the background thread (incident 2).",
					"Remove the log4j2.asyncQueueFullPolicy override, or set safe-defaults.logging.queue-full-policy=discard."),
			new Entry("logging.format-msg-async", Severity.WARNING,
					"log4j2.formatMsgAsync=true: messages are formatted on the background thread, so a mutable argument can be logged in a later state.",
					"Remove log4j2.formatMsgAsync=true."),
			new Entry("logging.full-stack-traces", Severity.INFO,
					"A pattern layout prints every stack trace in full (%ex, %xEx, %rEx, Boot's %wEx or %xwEx, or no throwable converter, to which Log4j appends %xEx) instead of %throttledEx: in an error storm the background thread falls behind (incident 6).",
					"Keep ${sys:LOG_EXCEPTION_CONVERSION_WORD} in the pattern (the starter makes it %throttledEx), or write %throttledEx in its place."),
			new Entry("logging.no-shutdown-hook", Severity.WARNING,
					"logging.register-shutdown-hook=false: events still queued in the async ring buffer are lost when the JVM exits.",
					"Remove logging.register-shutdown-hook=false."),
			new Entry("config-cache.mutable-type", Severity.INFO,
					"ParsedConfigCache hands one parsed object to every caller, and this target type can be changed "
							+ "(setters, public non-final fields, a collection, map, array or Jackson tree): a change "
							+ "made by one caller is seen by all.",
					"Make the type immutable (a record or final fields; List.copyOf in a compact constructor), or copy "
							+ "the value before changing it."),
			// JDBC, incident 5: MySQL-protocol Hikari pools (MySQL Connector/J, MariaDB Connector/J).
			new Entry("jdbc.server-prep-stmts-off", Severity.WARNING,
					"A MySQL-protocol pool runs without server-side prepared statements (useServerPrepStmts=false, "
							+ "or rewriteBatchedStatements=true on MariaDB Connector/J): the database parses every "
							+ "statement again.",
					"Remove the setting; safe-defaults sets useServerPrepStmts=true unless "
							+ "safe-defaults.jdbc.enabled=false."),
			new Entry("jdbc.stmt-cache-off", Severity.WARNING,
					"The pool's prepared statement cache is off (cachePrepStmts=false or prepStmtCacheSize=0): "
							+ "every statement is prepared again.",
					"Remove the setting; safe-defaults sets cachePrepStmts=true and prepStmtCacheSize."),
			new Entry("jdbc.stmt-cache-sql-limit-low", Severity.WARNING,
					"Connector/J's prepStmtCacheSqlLimit is below 2048: longer statements, such as MyBatis', are "
							+ "never cached.",
					"Remove it (safe-defaults sets 2048) or raise it to 2048 or more."),
			new Entry("jdbc.query-timeouts-off", Severity.WARNING,
					"enableQueryTimeouts=false is in effect (useConfigs=maxPerformance sets it): "
							+ "Statement.setQueryTimeout() and @Transactional(timeout) do nothing.",
					"Set enableQueryTimeouts=true (safe-defaults adds it next to maxPerformance)."),
			new Entry("jdbc.local-session-state", Severity.WARNING,
					"useLocalSessionState=true while the pool's connectionInitSql changes isolation, read-only, "
							+ "autocommit or the database: the driver never sees the change.",
					"Use the pool's own settings (transaction-isolation, read-only, auto-commit, catalog) instead "
							+ "of SQL, or set useLocalSessionState=false."),
			new Entry("jdbc.auto-reconnect", Severity.WARNING,
					"autoReconnect=true: Connector/J reconnects in the middle of a transaction and silently loses "
							+ "the work and session state before it.",
					"Remove autoReconnect=true; Hikari replaces broken connections."),
			new Entry("jdbc.multi-queries", Severity.WARNING,
					"allowMultiQueries=true: one SQL injection can append any statement.",
					"Remove allowMultiQueries=true; send statements one by one or batch them."),
			new Entry("jdbc.ignored-property", Severity.INFO,
					"A key in the pool's URL or data-source properties that its driver does not know and silently "
							+ "ignores (multiStatements on Connector/J, useConfigs on MariaDB Connector/J, a "
							+ "Connector/J key in the wrong case).",
					"Remove it or use the driver's own name for it."),
			new Entry("jdbc.infinite-connection-timeout", Severity.WARNING,
					"Hikari's connectionTimeout=0: a request waits for ever for a connection instead of failing "
							+ "fast.",
					"Set spring.datasource.hikari.connection-timeout to a few seconds (Hikari's default is 30s)."),
			new Entry("jdbc.prepared-stmt-budget", Severity.WARNING,
					"Pool size x statement cache x safe-defaults.jdbc.expected-instances exceeds half the server's "
							+ "max_prepared_stmt_count (Connector/J then silently stops using server prepares; "
							+ "MariaDB Connector/J may hang). Raised as INFO when the server could not be reached "
							+ "after startup.",
					"Lower safe-defaults.jdbc.prep-stmt-cache-size or the pool size, or raise "
							+ "max_prepared_stmt_count; set safe-defaults.jdbc.expected-instances."),
			new Entry("runtime.exception-storm", Severity.WARNING,
					"While the service runs, the JVM has been creating throwables faster than "
							+ "safe-defaults.runtime.exception-storm.per-second (or per-request) for longer than "
							+ "safe-defaults.runtime.sustained-for: each one fills in a stack trace (incidents 1 and 3: "
							+ "up to half the CPU). The message names the top throw sites, from a recording of at most "
							+ "one second. Shown while the storm lasts.",
					"Stop creating exceptions on the paths named: remember lookups, absent ones included "
							+ "(incident 1), check instead of catching, build converters and factories once; or raise "
							+ "the thresholds if the rate is expected."),
			new Entry("runtime.stderr-stack-traces", Severity.WARNING,
					"Stack traces are being printed to System.err faster than "
							+ "safe-defaults.runtime.stderr-stack-traces.per-second: printStackTrace() holds the "
							+ "System.err lock for every line, so printing threads queue behind each other (incident 8). "
							+ "The message names the most frequent exception classes. Shown while it lasts.",
					"Log the exception once through the logging framework instead of printing it, or fix what "
							+ "throws it."),
			new Entry("runtime.jfr-unavailable", Severity.INFO,
					"This JVM has no usable flight recorder (no jdk.jfr module, or the recorder is switched off), "
							+ "so exception and System.err storms are not watched.",
					"Run on a JDK, or a jlink image with the jdk.jfr module; or set safe-defaults.runtime.enabled=false."),
			new Entry("feign.per-call-converters", Severity.WARNING,
					"A Feign client's encoder or decoder gets a new converters object on every call (an ObjectFactory, "
							+ "ObjectProvider or Supplier that builds FeignHttpMessageConverters or HttpMessageConverters "
							+ "in getObject()): every call rebuilds every converter (incident 1: throughput fell 25×).",
					"Build the converters once: remove the custom Encoder/Decoder (safe-defaults gives every client one "
							+ "set built once) or return one instance built once from the provider."),
			new Entry("feign.default-converters", Severity.INFO,
					"A Feign client's converters include the defaults (resources, XML, every format on the class path) "
							+ "because the starter's shared set is off or overridden for it.",
					"Remove the converters bean or codec that brings them, or set safe-defaults.feign.enabled=true; add a "
							+ "converter the client needs as an HttpMessageConverter bean or an "
							+ "HttpMessageConverterCustomizer.")));

	private FindingCatalogue() {
	}

	private static Map<String, Entry> index(List<Entry> entries) {
		Map<String, Entry> byId = new LinkedHashMap<>();
		for (Entry entry : entries) {
			if (byId.put(entry.id(), entry) != null) {
				throw new IllegalStateException("Duplicate finding id " + entry.id());
			}
		}
		return byId;
	}

	/**
	 * Returns every documented entry, in catalogue order.
	 * @return the entries
	 */
	public static List<Entry> entries() {
		return List.copyOf(ENTRIES.values());
	}

	/**
	 * Returns every documented id.
	 * @return the ids
	 */
	public static Set<String> ids() {
		return ENTRIES.keySet();
	}

	/**
	 * Looks up an id.
	 * @param id the id
	 * @return its entry, or empty when the id is unknown
	 */
	public static Optional<Entry> find(String id) {
		return Optional.ofNullable(ENTRIES.get(id));
	}

}
