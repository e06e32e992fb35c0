package dev.safedefaults.logging.log4j2;

import java.util.Map;
import java.util.function.Function;

import org.apache.logging.log4j.util.PropertiesUtil;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class Log4jDefaultsPropertySourceTests {

	private static final ClassLoader LOADER = Log4jDefaultsPropertySourceTests.class.getClassLoader();

	private static Log4jDefaultsPropertySource source(Map<String, String> systemProperties,
			Map<String, String> environment) {
		return new Log4jDefaultsPropertySource(systemProperties::get, environment::get, LOADER);
	}

	@Test
	void suppliesAllAsyncTheCountingPolicyAndPinnedRingSizes() {
		Log4jDefaultsPropertySource source = source(Map.of(), Map.of());
		assertThat(source.getProperty("log4j2.contextSelector"))
			.isEqualTo("org.apache.logging.log4j.core.async.AsyncLoggerContextSelector");
		assertThat(source.getProperty("log4j2.asyncQueueFullPolicy"))
			.isEqualTo(CountingQueueFullPolicy.class.getName());
		assertThat(source.getProperty("log4j2.discardThreshold")).isEqualTo("INFO");
		assertThat(source.getProperty("log4j2.asyncLoggerRingBufferSize")).isEqualTo("32768");
		assertThat(source.getProperty("log4j2.asyncLoggerConfigRingBufferSize")).isEqualTo("32768");
		assertThat(source.getProperty("log4j2.asyncLoggerWaitStrategy")).isEqualTo("Sleep");
	}

	@Test
	void ranksBelowEverySourceLog4jShips() {
		assertThat(source(Map.of(), Map.of()).getPriority()).isGreaterThan(200);
	}

	@Test
	void log4jItselfReadsItAndASystemPropertyOverridesOneKey() {
		PropertiesUtil log4j = PropertiesUtil.getProperties();
		// Log4j's legacy key and its normal form both resolve through the starter's
		// source.
		assertThat(log4j.getStringProperty("Log4jContextSelector"))
			.isEqualTo("org.apache.logging.log4j.core.async.AsyncLoggerContextSelector");
		assertThat(log4j.getStringProperty("AsyncLogger.RingBufferSize")).isEqualTo("32768");
		System.setProperty("log4j2.asyncLoggerRingBufferSize", "1024");
		try {
			assertThat(log4j.getStringProperty("AsyncLogger.RingBufferSize")).isEqualTo("1024");
		}
		finally {
			System.clearProperty("log4j2.asyncLoggerRingBufferSize");
		}
	}

	@Test
	void theJvmLevelSwitchesTurnItOffAsAWhole() {
		for (Map<String, String> properties : java.util.List.of(Map.of("safe-defaults.logging.enabled", "false"),
				Map.of("safe-defaults.enabled", "false"), Map.of("safe-defaults.enabled", " FALSE "))) {
			assertThat(source(properties, Map.of()).getPropertyNames()).as("%s", properties).isEmpty();
		}
		for (String variable : java.util.List.of("SAFEDEFAULTS_LOGGING_ENABLED", "SAFEDEFAULTS_ENABLED",
				"SAFE_DEFAULTS_LOGGING_ENABLED", "SAFE_DEFAULTS_ENABLED")) {
			assertThat(source(Map.of(), Map.of(variable, "false")).getPropertyNames()).as(variable).isEmpty();
		}
		assertThat(source(Map.of("safe-defaults.logging.enabled", "true"), Map.of()).getPropertyNames()).isNotEmpty();
	}

	@Test
	void theRingSizeComesFromTheJvmLevelKeyAndFallsBackWhenInvalid() {
		assertThat(source(Map.of("safe-defaults.logging.ring-buffer-size", "4096"), Map.of())
			.getProperty("log4j2.asyncLoggerRingBufferSize")).isEqualTo("4096");
		assertThat(source(Map.of(), Map.of("SAFEDEFAULTS_LOGGING_RINGBUFFERSIZE", "8192"))
			.getProperty("log4j2.asyncLoggerConfigRingBufferSize")).isEqualTo("8192");
		assertThat(source(Map.of("safe-defaults.logging.ring-buffer-size", "12"), Map.of())
			.getProperty("log4j2.asyncLoggerRingBufferSize")).isEqualTo("32768");
		assertThat(source(Map.of("safe-defaults.logging.ring-buffer-size", "lots"), Map.of())
			.getProperty("log4j2.asyncLoggerRingBufferSize")).isEqualTo("32768");
	}

	@Test
	void withoutADisruptorThereIsNoAsyncSelectorButTheRestStays() {
		ClassLoader noDisruptor = new org.springframework.boot.test.context.FilteredClassLoader("com.lmax.disruptor");
		Function<String, String> none = (key) -> null;
		Log4jDefaultsPropertySource source = new Log4jDefaultsPropertySource(none, none, noDisruptor);
		Log4jDefaultsPropertySource withDisruptor = new Log4jDefaultsPropertySource(none, none, LOADER);
		assertThat(source.getProperty("log4j2.contextSelector")).isNull();
		assertThat(withDisruptor.getPropertyNames()).contains("log4j2.contextSelector");
		// Every other key is there, with the value it has when the Disruptor is present.
		assertThat(source.getPropertyNames()).containsExactlyInAnyOrderElementsOf(withDisruptor.getPropertyNames()
			.stream()
			.filter((key) -> !key.equals("log4j2.contextSelector"))
			.toList());
		for (String key : source.getPropertyNames()) {
			assertThat(source.getProperty(key)).as(key).isNotNull().isEqualTo(withDisruptor.getProperty(key));
		}
		assertThat(source.getProperty("log4j2.asyncQueueFullPolicy"))
			.isEqualTo(CountingQueueFullPolicy.class.getName());
	}

}
