package dev.safedefaults.logging.logback;

import java.util.List;

import ch.qos.logback.classic.LoggerContext;
import dev.safedefaults.check.Finding;
import dev.safedefaults.logging.LoggingFindings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Logback patterns that print every stack trace in full raise the same finding as on
 * Log4j2 ({@code logging.full-stack-traces}), on real contexts configured from XML; the
 * configuration is left as it is.
 */
@Tag("logback")
class LogbackFullStackTracesCheckTests {

	private LoggerContext context;

	@BeforeAll
	static void registerTheWord() {
		new ThrottledThrowableConverterRegistration().postProcessEnvironment(new MockEnvironment(),
				new SpringApplication());
	}

	@AfterEach
	void stop() {
		if (this.context != null) {
			this.context.stop();
		}
	}

	private List<Finding> check(String xml) {
		this.context = LogbackXmlContexts.configure(xml);
		LoggerContext checked = this.context;
		return new LogbackFullStackTracesCheck(() -> checked, LoggingFindings.FULL_STACK_TRACES_ON_LOGBACK).run();
	}

	private List<Finding> checkPattern(String pattern) {
		return check(LogbackXmlContexts.console("CONSOLE", pattern)
				+ "<root level=\"INFO\"><appender-ref ref=\"CONSOLE\"/></root>");
	}

	@Test
	void everyFullTraceWordIsReportedWithTheAppenderAndTheWords() {
		List<Finding> findings = checkPattern("%msg%n%ex %xEx %rEx");
		assertThat(findings).singleElement().satisfies((finding) -> {
			assertThat(finding.id()).isEqualTo("logging.full-stack-traces");
			assertThat(finding.subject()).isEqualTo("CONSOLE");
			assertThat(finding.message()).contains("'CONSOLE'", "(%ex %xEx %rEx)");
			assertThat(finding.fix()).contains("%throttledEx", "'CONSOLE'", "in place of %ex %xEx %rEx");
		});
	}

	@Test
	void aPatternWithoutAThrowableWordIsReportedSinceLogbackAppendsEx() {
		assertThat(checkPattern("%d %-5level %logger - %msg%n")).singleElement()
			.satisfies((finding) -> assertThat(finding.message()).contains("Logback appends %ex"));
	}

	@Test
	void throttledExAndNopexAreNotReported() {
		assertThat(checkPattern("%d %-5level %logger - %msg%n%throttledEx")).isEmpty();
		assertThat(checkPattern("{\"message\":\"%replace(%msg){'\"', '\\\\\"'}\"}%n%nopex")).isEmpty();
	}

	@Test
	void theApplicationsOwnWordForAFullTraceConverterIsFound() {
		List<Finding> findings = check("<conversionRule conversionWord=\"trace\" "
				+ "class=\"ch.qos.logback.classic.pattern.ThrowableProxyConverter\"/>"
				+ LogbackXmlContexts.console("CONSOLE", "%msg%n%trace")
				+ "<root level=\"INFO\"><appender-ref ref=\"CONSOLE\"/></root>");
		assertThat(findings).singleElement().satisfies((finding) -> assertThat(finding.message()).contains("(%trace)"));
	}

}
