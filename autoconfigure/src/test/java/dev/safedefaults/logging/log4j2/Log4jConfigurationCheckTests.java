package dev.safedefaults.logging.log4j2;

import java.io.IOException;
import java.util.List;
import java.util.function.Function;

import dev.safedefaults.check.Finding;
import dev.safedefaults.check.Severity;
import dev.safedefaults.logging.QueueFullMode;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.async.AsyncLoggerContext;
import org.apache.logging.log4j.core.config.ConfigurationFactory;
import org.apache.logging.log4j.core.config.ConfigurationSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The logging checks on real Log4j2 configuration files. Covers
 * {@code FullStackTraceRenderers}: the layouts that print a 40-frame test exception in
 * full are named, whatever prints it, and those that throttle or shorten it are not.
 */
class Log4jConfigurationCheckTests {

	private LoggerContext context;

	@BeforeEach
	void bootsSystemProperties() {
		// Set by Boot's logging system before it loads its own log4j2.xml; the conversion
		// word
		// from logging.exception-conversion-word, which the starter makes %throttledEx.
		System.setProperty("CONSOLE_LOG_CHARSET", "UTF-8");
		System.setProperty("LOG_EXCEPTION_CONVERSION_WORD", "%throttledEx");
	}

	@AfterEach
	void stop() {
		if (this.context != null) {
			this.context.stop();
		}
		CountingQueueFullPolicy.configure(QueueFullMode.DISCARD, Level.INFO);
		System.clearProperty("log4j2.asyncQueueFullPolicy");
		System.clearProperty("log4j2.formatMsgAsync");
		System.clearProperty("CONSOLE_LOG_CHARSET");
		System.clearProperty("LOG_EXCEPTION_CONVERSION_WORD");
	}

	private List<Finding> check(Function<String, LoggerContext> contextType, String resource) throws IOException {
		this.context = contextType.apply("check-" + System.nanoTime());
		ConfigurationSource source = ConfigurationSource.fromResource(resource, getClass().getClassLoader());
		this.context.start(ConfigurationFactory.getInstance().getConfiguration(this.context, source));
		return new Log4jConfigurationCheck().check(this.context);
	}

	private static List<String> ids(List<Finding> findings) {
		return findings.stream().map(Finding::id).toList();
	}

	@Test
	void theIncidentsConfigurationIsReportedOnEveryCount() throws IOException {
		List<Finding> findings = check(LoggerContext::new, "logging/naive-log4j2.xml");
		assertThat(ids(findings)).containsExactlyInAnyOrder("logging.sync-loggers", "logging.include-location",
				"logging.include-location", "logging.location-pattern", "logging.full-stack-traces");
		assertThat(findings).filteredOn((f) -> f.id().equals("logging.include-location"))
			.extracting(Finding::subject)
			.containsExactlyInAnyOrder("root", "com.example.orders");
		assertThat(findings).filteredOn((f) -> f.id().equals("logging.location-pattern"))
			.singleElement()
			.satisfies((f) -> {
				assertThat(f.subject()).isEqualTo("Console");
				assertThat(f.message()).contains("%C", "%M", "%L");
			});
	}

	@Test
	void anAsyncRootInsideTheAllAsyncContextIsTwoQueuesAndANestedLocationConverterIsFound() throws IOException {
		List<Finding> findings = check(AsyncLoggerContext::new, "logging/async-root-log4j2.xml");
		assertThat(ids(findings)).containsExactlyInAnyOrder("logging.two-queues", "logging.location-pattern",
				"logging.full-stack-traces");
		assertThat(findings).filteredOn((f) -> f.id().equals("logging.location-pattern"))
			.singleElement()
			.satisfies((f) -> assertThat(f.message()).contains("%L"));
	}

	@Test
	void bootsDefaultConfigurationUnderTheStartersDefaultsHasNoFinding() throws IOException {
		assertThat(check(AsyncLoggerContext::new, "org/springframework/boot/logging/log4j2/log4j2.xml")).isEmpty();
	}

	@Test
	void bootsDefaultConfigurationWithItsOwnConversionWordPrintsEveryTraceInFull() throws IOException {
		// safe-defaults.logging.stack-traces.enabled=false: Boot's %xwEx.
		System.clearProperty("LOG_EXCEPTION_CONVERSION_WORD");
		List<Finding> findings = check(AsyncLoggerContext::new, "org/springframework/boot/logging/log4j2/log4j2.xml");
		assertThat(findings).singleElement().satisfies((finding) -> {
			assertThat(finding.id()).isEqualTo("logging.full-stack-traces");
			assertThat(finding.severity()).isEqualTo(Severity.INFO);
			assertThat(finding.subject()).isEqualTo("Console");
			assertThat(finding.message()).contains("40 frame lines", "incident 6");
		});
	}

	@Test
	void layoutsThatPrintEveryTraceInFullAreNamedAndThrottledOrShortenedOnesAreNot() throws IOException {
		List<Finding> findings = check(AsyncLoggerContext::new, "logging/stack-trace-renderers-log4j2.xml");
		assertThat(findings).allSatisfy((finding) -> {
			assertThat(finding.id()).isEqualTo("logging.full-stack-traces");
			assertThat(finding.message()).contains("a 40-frame test exception came out with 40 frame lines");
		})
			.extracting(Finding::subject)
			.containsExactlyInAnyOrder("HardCodedEx", "NoConverter", "BootsWhitespaceEx", "NestedInHighlight",
					"SelectorDefault");
	}

	@Test
	void aBlockingQueueFullPolicyIsReported() throws IOException {
		System.setProperty("log4j2.asyncQueueFullPolicy", "Default");
		assertThat(check(AsyncLoggerContext::new, "org/springframework/boot/logging/log4j2/log4j2.xml")).singleElement()
			.satisfies((finding) -> {
				assertThat(finding.id()).isEqualTo("logging.blocking-queue-full");
				assertThat(finding.message()).contains("log4j2.asyncQueueFullPolicy=Default");
				assertThat(finding.fix()).contains("Remove the log4j2.asyncQueueFullPolicy override");
			});
	}

	@Test
	void theStartersPolicyInBlockModeIsReported() throws IOException {
		CountingQueueFullPolicy.configure(QueueFullMode.BLOCK, Level.INFO);
		assertThat(check(AsyncLoggerContext::new, "org/springframework/boot/logging/log4j2/log4j2.xml")).singleElement()
			.satisfies((finding) -> {
				assertThat(finding.id()).isEqualTo("logging.blocking-queue-full");
				assertThat(finding.fix()).contains("safe-defaults.logging.queue-full-policy=discard")
					.doesNotContain("override");
			});
	}

	@Test
	void formattingOnTheBackgroundThreadIsReported() throws IOException {
		System.setProperty("log4j2.formatMsgAsync", "true");
		assertThat(ids(check(AsyncLoggerContext::new, "org/springframework/boot/logging/log4j2/log4j2.xml")))
			.containsExactly("logging.format-msg-async");
	}

	@Test
	void locationConvertersAreFoundWhereverTheyAreNested() {
		assertThat(LocationConverters.find("%d %-5level %logger{36} - %msg%n%xwEx")).isEmpty();
		assertThat(LocationConverters.find("%clr{%d}{faint} %clr{%5p} %-40.40c{1.} %m%n")).isEmpty();
		assertThat(LocationConverters.find("100%% done %m")).isEmpty();
		assertThat(LocationConverters.find("%C.%M:%L")).containsExactly("%C", "%M", "%L");
		assertThat(LocationConverters.find("%highlight{%l}")).containsExactly("%l");
		assertThat(LocationConverters.find("%maxLen{%location}{20} %-20.30class %file %line %method"))
			.containsExactly("%location", "%class", "%file", "%line", "%method");
		assertThat(LocationConverters.find("%clr{%F}{cyan}")).containsExactly("%F");
	}

}
