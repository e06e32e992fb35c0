package dev.safedefaults.logging.log4j2;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import dev.safedefaults.SafeDefaultsProperties;
import dev.safedefaults.logging.DisruptorVersion;
import dev.safedefaults.logging.LoggingDefaultsProperties;
import dev.safedefaults.logging.LoggingDefaultsSwitch;
import org.apache.logging.log4j.util.PropertySource;
import org.jspecify.annotations.Nullable;

/**
 * The starter's Log4j defaults, read by Log4j itself when it starts, before Spring (a
 * {@code META-INF/services/org.apache.logging.log4j.util.PropertySource} service):
 * <ul>
 * <li>all loggers asynchronous ({@code AsyncLoggerContextSelector}), when the LMAX
 * Disruptor 3.x is on the class path (incident 2);</li>
 * <li>the {@link CountingQueueFullPolicy}: when the ring buffer is full, INFO and below
 * are discarded and counted, WARN and ERROR wait (incident 2);</li>
 * <li>pinned ring buffer sizes for async loggers and async logger configs;</li>
 * <li>a sleeping wait strategy (a 10 ms poll while the ring is empty), so a logging
 * thread never has to wake the background thread.</li>
 * </ul>
 * Its priority ({@value #PRIORITY}) is below every source Log4j ships, so any {@code -D},
 * {@code LOG4J_*} variable, {@code log4j2.component.properties} or Spring property
 * overrides a single key. It is switched off as a whole by the JVM-level keys
 * {@code safe-defaults.logging.enabled=false} or {@code safe-defaults.enabled=false}
 * (system properties, or the environment variables {@code SAFEDEFAULTS_LOGGING_ENABLED},
 * {@code SAFEDEFAULTS_ENABLED}, {@code SAFE_DEFAULTS_LOGGING_ENABLED},
 * {@code SAFE_DEFAULTS_ENABLED}). Nothing here logs: Log4j is not ready when it runs.
 */
public class Log4jDefaultsPropertySource implements PropertySource {

	/** Lower numbers win; Log4j's own file source has 200. */
	public static final int PRIORITY = 300;

	static final String CONTEXT_SELECTOR = "log4j2.contextSelector";

	static final String QUEUE_FULL_POLICY = "log4j2.asyncQueueFullPolicy";

	static final String DISCARD_THRESHOLD = "log4j2.discardThreshold";

	static final String RING_BUFFER_SIZE = "log4j2.asyncLoggerRingBufferSize";

	static final String CONFIG_RING_BUFFER_SIZE = "log4j2.asyncLoggerConfigRingBufferSize";

	static final String WAIT_STRATEGY = "log4j2.asyncLoggerWaitStrategy";

	static final String CONFIG_WAIT_STRATEGY = "log4j2.asyncLoggerConfigWaitStrategy";

	/**
	 * The background thread polls every 10 ms when the ring is empty instead of being
	 * signalled: a logging thread then never takes the wait strategy's lock to wake it
	 * (measured with a 1 ms poll, 4 threads, file appender, light load: mean 1.0 µs and
	 * p99 2.1–2.5 µs per INFO call on the calling thread, against 5.5 µs and 26 µs with
	 * Log4j's default, Timeout). 10 ms, not 1 ms (issue 32): with a 1 ms poll the idle
	 * sample app's Log4j2 thread used 17 ms of CPU per second (the process 20–22 ms/s,
	 * 5–6 ms/s without the starter), and 167 µs per request under the reference workload;
	 * with 10 ms, 4.5 ms/s idle (process 7.3 ms/s) and 50 µs per request. A burst that
	 * arrives while it sleeps waits at most 10 ms in the ring (32,768 slots hold 1.4 s at
	 * the incident's 24,000 events per second); the calling thread's cost is the same.
	 */
	static final String SLEEP_TIME = "10000000";

	static final String ASYNC_SELECTOR = "org.apache.logging.log4j.core.async.AsyncLoggerContextSelector";

	private static final String PREFIX = "log4j2.";

	private final Map<String, String> properties;

	/**
	 * Creates the source from the JVM's system properties and environment.
	 */
	public Log4jDefaultsPropertySource() {
		this(System::getProperty, System::getenv, Log4jDefaultsPropertySource.class.getClassLoader());
	}

	Log4jDefaultsPropertySource(Function<String, String> systemProperties, Function<String, String> environment,
			ClassLoader classLoader) {
		JvmLevelSettings settings = new JvmLevelSettings(systemProperties, environment);
		this.properties = settings.enabled() ? defaults(settings, classLoader) : Collections.emptyMap();
	}

	private static Map<String, String> defaults(JvmLevelSettings settings, ClassLoader classLoader) {
		Map<String, String> defaults = new LinkedHashMap<>();
		if (DisruptorVersion.of(classLoader) == DisruptorVersion.V3) {
			// Not with Disruptor 4.x: Log4j 2.25 then loses events, WARN and ERROR
			// included,
			// whenever the ring is full (logging.disruptor-4 reports it).
			defaults.put(CONTEXT_SELECTOR, ASYNC_SELECTOR);
		}
		defaults.put(QUEUE_FULL_POLICY, CountingQueueFullPolicy.class.getName());
		defaults.put(DISCARD_THRESHOLD, "INFO");
		defaults.put(WAIT_STRATEGY, "Sleep");
		defaults.put("log4j2.asyncLoggerSleepTimeNs", SLEEP_TIME);
		defaults.put("log4j2.asyncLoggerRetries", "0");
		defaults.put(CONFIG_WAIT_STRATEGY, "Sleep");
		defaults.put("log4j2.asyncLoggerConfigSleepTimeNs", SLEEP_TIME);
		defaults.put("log4j2.asyncLoggerConfigRetries", "0");
		String size = String.valueOf(settings.ringBufferSizeOrDefault());
		defaults.put(RING_BUFFER_SIZE, size);
		defaults.put(CONFIG_RING_BUFFER_SIZE, size);
		return Collections.unmodifiableMap(defaults);
	}

	@Override
	public int getPriority() {
		return PRIORITY;
	}

	@Override
	public Collection<String> getPropertyNames() {
		return this.properties.keySet();
	}

	@Override
	public CharSequence getNormalForm(Iterable<? extends CharSequence> tokens) {
		return PREFIX + Util.joinAsCamelCase(tokens);
	}

	@Override
	public @Nullable String getProperty(String key) {
		return this.properties.get(key);
	}

	@Override
	public boolean containsProperty(String key) {
		return this.properties.containsKey(key);
	}

	/**
	 * The JVM-level switches: read from system properties and environment variables,
	 * since Log4j starts before Spring's Environment exists.
	 */
	static final class JvmLevelSettings {

		static final String ENABLED = SafeDefaultsProperties.ENABLED_PROPERTY;

		static final String LOGGING_ENABLED = LoggingDefaultsSwitch.ENABLED_PROPERTY;

		static final String RING_BUFFER_SIZE_KEY = "safe-defaults.logging.ring-buffer-size";

		private final Function<String, String> systemProperties;

		private final Function<String, String> environment;

		JvmLevelSettings(Function<String, String> systemProperties, Function<String, String> environment) {
			this.systemProperties = systemProperties;
			this.environment = environment;
		}

		static JvmLevelSettings fromJvm() {
			return new JvmLevelSettings(System::getProperty, System::getenv);
		}

		boolean enabled() {
			return !"false".equalsIgnoreCase(trim(get(ENABLED)))
					&& !"false".equalsIgnoreCase(trim(get(LOGGING_ENABLED)));
		}

		/**
		 * The raw JVM-level ring buffer size, or {@code null} when not set.
		 */
		@Nullable String ringBufferSize() {
			return trim(get(RING_BUFFER_SIZE_KEY));
		}

		int ringBufferSizeOrDefault() {
			Integer size = parseRingBufferSize(ringBufferSize());
			return (size != null) ? size : LoggingDefaultsProperties.DEFAULT_RING_BUFFER_SIZE;
		}

		/**
		 * Parses a ring buffer size.
		 * @return the size, or {@code null} when absent or invalid (the Spring side
		 * reports it)
		 */
		static @Nullable Integer parseRingBufferSize(@Nullable String value) {
			if (value == null || value.isEmpty()) {
				return null;
			}
			try {
				int size = Integer.parseInt(value.replace("_", ""));
				return (size >= LoggingDefaultsProperties.MIN_RING_BUFFER_SIZE
						&& size <= LoggingDefaultsProperties.MAX_RING_BUFFER_SIZE) ? size : null;
			}
			catch (NumberFormatException ex) {
				return null;
			}
		}

		private String get(String key) {
			String value = this.systemProperties.apply(key);
			if (value != null) {
				return value;
			}
			// Boot's relaxed form (SAFEDEFAULTS_LOGGING_ENABLED) and the spelled-out one.
			String upper = key.toUpperCase(Locale.ROOT);
			value = this.environment.apply(upper.replace("-", "").replace('.', '_'));
			if (value != null) {
				return value;
			}
			return this.environment.apply(upper.replace('-', '_').replace('.', '_'));
		}

		private static @Nullable String trim(@Nullable String value) {
			return (value != null) ? value.trim() : null;
		}

	}

}
