package dev.safedefaults.logging.logback;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.List;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import dev.safedefaults.logging.stacktrace.StackTraceThrottleConfigurer;
import dev.safedefaults.logging.stacktrace.StackTraceThrottling;
import dev.safedefaults.testsupport.OnEveryJdk;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code %throttledEx} on Logback, rendering real events through the layout of a context
 * configured from XML, with the word as the starter registers it (no
 * {@code <conversionRule>}). Event times are set, not waited for.
 */
@OnEveryJdk
@Tag("logback")
class ThrottledThrowableConverterTests {

	private static final String NL = System.lineSeparator();

	private static final long T0 = LocalDateTime.of(LocalDateTime.now().toLocalDate(), LocalTime.of(10, 0))
		.atZone(ZoneId.systemDefault())
		.toInstant()
		.toEpochMilli();

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
		StackTraceThrottling.reset();
	}

	private PatternLayout layout(String pattern) {
		this.context = LogbackXmlContexts.configure("<conversionRule conversionWord=\"wEx\" "
				+ "class=\"org.springframework.boot.logging.logback.ExtendedWhitespaceThrowableProxyConverter\"/>"
				+ LogbackXmlContexts.console("CONSOLE", pattern)
				+ "<root level=\"INFO\"><appender-ref ref=\"CONSOLE\"/></root>");
		OutputStreamAppender<?> console = (OutputStreamAppender<?>) this.context
			.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)
			.getAppender("CONSOLE");
		return (PatternLayout) ((PatternLayoutEncoder) console.getEncoder()).getLayout();
	}

	private String render(PatternLayout layout, Throwable thrown, long time) {
		LoggingEvent event = new LoggingEvent(getClass().getName(),
				this.context.getLogger(ThrottledThrowableConverterTests.class), Level.ERROR, "failed", thrown, null);
		event.setTimeStamp(time);
		return layout.doLayout(event);
	}

	private static IllegalStateException failure(String message) {
		return new IllegalStateException(message, new java.net.ConnectException("refused"));
	}

	/** The same kind every time: thrown from the same frames. */
	private String[] renderAll(PatternLayout layout, int count, long... times) {
		String[] rendered = new String[count];
		for (int i = 0; i < count; i++) {
			rendered[i] = render(layout, failure("boom"), times[i]);
		}
		return rendered;
	}

	@Test
	void theFirstThreeOfAKindArePrintedInFullAsBootsWexAndTheRepeatsInOneLine() {
		String[] rendered = renderAll(layout("%msg%throttledEx"), 4, T0, T0 + 1, T0 + 2, T0 + 3);
		String first = rendered[0];
		assertThat(rendered[1]).isEqualTo(first);
		assertThat(rendered[2]).isEqualTo(first);
		assertThat(first).startsWith("failed" + NL + "java.lang.IllegalStateException: boom" + NL)
			.contains("\tat " + getClass().getName(), "Caused by: java.net.ConnectException: refused")
			.endsWith(NL + NL);
		assertThat(rendered[3]).isEqualTo("failed" + NL + "java.lang.IllegalStateException at "
				+ failure("boom").getStackTrace()[0] + ", root cause java.net.ConnectException (message and stack "
				+ "trace elided: seen 4 times since 10:00:00; first printed at 10:00:00)" + NL + NL);
		assertThat(rendered[3]).doesNotContain("boom", "refused");
	}

	@Test
	void aFullTraceIsWhatBootsLogbackWexPrints() {
		IllegalStateException thrown = failure("boom");
		String throttled = render(layout("%msg%throttledEx"), thrown, T0);
		this.context.stop();
		String boots = render(layout("%msg%wEx"), thrown, T0);
		assertThat(throttled).isEqualTo(boots);
	}

	@Test
	void credentialsInTheMessagesOfAFullTraceAreMasked() {
		String rendered = render(layout("%msg%throttledEx"),
				failure("Cannot connect to jdbc:mysql://app:s3cret@db:3306/orders"), T0);
		assertThat(rendered).contains("Cannot connect to jdbc:mysql:", "\tat " + getClass().getName())
			.doesNotContain("s3cret");
	}

	@Test
	void theContextsSettingsApplyAndItsElisionsAreCountedForIt() {
		StackTraceThrottleConfigurer configurer = new StackTraceThrottleConfigurer(1, Duration.ofMinutes(1), 16);
		try {
			String[] rendered = renderAll(layout("%msg%throttledEx"), 3, T0, T0 + 1, T0 + 60_000);
			assertThat(rendered[0]).contains("\tat ");
			assertThat(rendered[1]).contains("elided: seen 2 times");
			assertThat(rendered[2]).contains("\tat ");
			assertThat(configurer.elidedCount()).isEqualTo(1);
		}
		finally {
			configurer.destroy();
		}
	}

	@Test
	void eachLayoutKeepsItsOwnKinds() {
		String[] rendered = renderAll(layout("%msg%throttledEx"), 4, T0, T0, T0, T0);
		assertThat(rendered[3]).contains("elided");
		PatternLayout another = new PatternLayout();
		another.setContext(this.context);
		another.setPattern("%msg%throttledEx");
		another.start();
		assertThat(renderAll(another, 1, T0)[0]).contains("\tat ");
	}

	@Test
	void aDepthOfZeroIsNotThrottled() {
		assertThat(renderAll(layout("%msg%throttledEx{0}"), 5, T0, T0, T0, T0, T0))
			.noneMatch((line) -> line.contains("elided"));
	}

	@Test
	void anEventWithoutThrowableRendersNothingAndLogbackAppendsNoExAfterTheWord() {
		PatternLayout throttled = layout("%msg%throttledEx");
		LoggingEvent event = new LoggingEvent(getClass().getName(),
				this.context.getLogger(ThrottledThrowableConverterTests.class), Level.INFO, "fine", null, null);
		assertThat(throttled.doLayout(event)).isEqualTo("fine");
		assertThat(renderAll(throttled, 4, T0, T0, T0, T0)[3]).doesNotContain("\tat ");
	}

	@Test
	void theLongFormsOfTheWordWork() {
		for (String word : List.of("throttledThrowable", "throttledException")) {
			PatternLayout throttled = layout("%msg%" + word);
			assertThat(render(throttled, failure("boom"), T0)).contains("\tat ");
			this.context.stop();
		}
	}

}
