package dev.safedefaults.logging.log4j2;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import dev.safedefaults.logging.stacktrace.StackTraceThrottling;
import dev.safedefaults.testsupport.OnEveryJdk;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.DefaultConfiguration;
import org.apache.logging.log4j.core.config.plugins.processor.PluginProcessor;
import org.apache.logging.log4j.core.config.plugins.util.PluginManager;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.apache.logging.log4j.core.pattern.LogEventPatternConverter;
import org.apache.logging.log4j.core.pattern.PatternConverter;
import org.apache.logging.log4j.core.pattern.PatternFormatter;
import org.apache.logging.log4j.core.pattern.PatternParser;
import org.apache.logging.log4j.message.SimpleMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code %throttledEx} rendering events through a real {@link PatternLayout} (the plugin
 * found through Log4j's plugin index, as in an application). Event times are set, not
 * waited for: intervals are crossed by timestamps. Covers {@code ThrottledStackTraces},
 * which the converter keeps: the first traces of a kind in full, then one line (class,
 * throw site, root cause, counts and times, never the message), every elision counted,
 * the kinds remembered bounded.
 */
@OnEveryJdk
class ThrottledThrowablePatternConverterTests {

	private static final String NL = System.lineSeparator();

	/**
	 * 10:00:00 today, local time: the times in the one-liners are local, as in the log.
	 */
	private static final long T0 = LocalDateTime.of(LocalDateTime.now().toLocalDate(), LocalTime.of(10, 0))
		.atZone(ZoneId.systemDefault())
		.toInstant()
		.toEpochMilli();

	private final Configuration configuration = new DefaultConfiguration();

	private final PatternLayout layout = layout("%p %m%n%throttledEx");

	@AfterEach
	void restoreDefaults() {
		StackTraceThrottling.reset();
	}

	private PatternLayout layout(String pattern) {
		return PatternLayout.newBuilder().withPattern(pattern).withConfiguration(this.configuration).build();
	}

	private static LogEvent event(Throwable thrown, long timeMillis) {
		return Log4jLogEvent.newBuilder()
			.setLoggerName("storm")
			.setLevel(Level.ERROR)
			.setMessage(new SimpleMessage("request failed"))
			.setThrown(thrown)
			.setTimeMillis(timeMillis)
			.build();
	}

	private static String time(long epochMillis) {
		return DateTimeFormatter.ofPattern("HH:mm:ss")
			.format(Instant.ofEpochMilli(epochMillis).atZone(ZoneId.systemDefault()));
	}

	private static String elided(long seen, long since, long firstPrinted) {
		return " (message and stack trace elided: seen " + seen + " times since " + time(since) + "; first printed at "
				+ time(firstPrinted) + ")";
	}

	/** The one-liner of a site A repeat: class, throw site, root cause; no message. */
	private static String siteAOneLiner() {
		return "java.lang.IllegalStateException at " + siteA("any").getStackTrace()[0]
				+ ", root cause java.io.IOException";
	}

	/** The lines of the rendering after the message line that are not blank. */
	private static List<String> throwableLines(String rendered) {
		List<String> lines = Arrays.asList(rendered.split("\\R"));
		return lines.subList(1, lines.size()).stream().filter((line) -> !line.isBlank()).toList();
	}

	// Site A: always the same three frames on top (a2, a1, siteA), the cause too.
	private static IllegalStateException siteA(String message) {
		return a1(message);
	}

	private static IllegalStateException a1(String message) {
		return a2(message);
	}

	private static IllegalStateException a2(String message) {
		IllegalStateException failure = new IllegalStateException(message, new IOException("connection reset"));
		failure.addSuppressed(new IllegalArgumentException("cleanup failed"));
		return failure;
	}

	// Site B: the same class as site A, thrown elsewhere.
	private static IllegalStateException siteB(String message) {
		return b1(message);
	}

	private static IllegalStateException b1(String message) {
		return new IllegalStateException(message);
	}

	private static StackTraceElement frame(String className, int line) {
		return new StackTraceElement(className, "call", className + ".java", line);
	}

	private static StackTraceElement jdkFrame(String className, int line) {
		return new StackTraceElement("app", "java.base", "17", className, "invoke", "X.java", line);
	}

	private static <T extends Throwable> T withTrace(T throwable, StackTraceElement... trace) {
		throwable.setStackTrace(trace);
		return throwable;
	}

	@Test
	void theConverterIsRegisteredThroughLog4jsPluginIndex() throws IOException {
		List<URL> indexes = Collections
			.list(getClass().getClassLoader().getResources(PluginProcessor.PLUGIN_CACHE_FILE));
		assertThat(indexes).anySatisfy((url) -> {
			try (InputStream in = url.openStream()) {
				assertThat(new String(in.readAllBytes(), StandardCharsets.ISO_8859_1))
					.contains(ThrottledThrowablePatternConverter.class.getName());
			}
		});
		PluginManager converters = new PluginManager(PatternConverter.CATEGORY);
		converters.collectPlugins();
		assertThat(converters.getPluginType("throttledthrowablepatternconverter").getPluginClass())
			.isEqualTo(ThrottledThrowablePatternConverter.class);
		List<PatternFormatter> formatters = new PatternParser(this.configuration, PatternLayout.KEY,
				LogEventPatternConverter.class)
			.parse("%throttledEx");
		assertThat(formatters).singleElement()
			.satisfies((formatter) -> assertThat(formatter.getConverter())
				.isInstanceOf(ThrottledThrowablePatternConverter.class));
	}

	@Test
	void itHandlesTheThrowableSoPatternLayoutAddsNoTraceOfItsOwn() {
		ThrottledThrowablePatternConverter converter = ThrottledThrowablePatternConverter
			.newInstance(this.configuration, new String[0]);
		assertThat(converter.handlesThrowable()).isTrue();
		for (int i = 0; i < 4; i++) {
			this.layout.toSerializable(event(siteA("boom"), T0 + i));
		}
		// PatternLayout writes exceptions always; had it appended %xEx, the repeat would
		// carry frames.
		assertThat(this.layout.toSerializable(event(siteA("boom"), T0 + 5))).doesNotContain("\tat ");
	}

	@Test
	void theFirstNTracesOfAKindAreFullWithCausesAndSuppressed() {
		for (int i = 1; i <= StackTraceThrottling.DEFAULT_FIRST_N; i++) {
			String rendered = this.layout.toSerializable(event(siteA("boom " + i), T0 + i));
			assertThat(rendered).startsWith("ERROR request failed" + NL)
				.contains(NL + "java.lang.IllegalStateException: boom " + i + NL)
				.contains("\tat " + getClass().getName() + ".a2(")
				.contains("Suppressed: java.lang.IllegalArgumentException: cleanup failed")
				.contains("Caused by: java.io.IOException: connection reset")
				.doesNotContain("stack trace elided");
		}
	}

	@Test
	void theRestAreOneLineWithTheCountAndNoFrames() {
		for (int i = 1; i <= 3; i++) {
			this.layout.toSerializable(event(siteA("boom " + i), T0 + i));
		}
		for (int i = 4; i <= 10; i++) {
			String rendered = this.layout.toSerializable(event(siteA("boom " + i), T0 + i * 1000L));
			assertThat(throwableLines(rendered)).containsExactly(siteAOneLiner() + elided(i, T0 + 1, T0 + 1));
			assertThat(rendered).doesNotContain("\tat ").doesNotContain("Caused by").doesNotContain("Suppressed");
		}
	}

	@Test
	void theFirstTraceReadsExactlyAsBootsXwEx() {
		LogEvent first = event(siteA("boom"), T0);
		assertThat(this.layout.toSerializable(first)).isEqualTo(layout("%p %m%n%xwEx").toSerializable(first));
	}

	@Test
	void aRepeatIsLaidOutAsBootsXwExLaysOutAOneLineTrace() {
		for (int i = 0; i < 3; i++) {
			this.layout.toSerializable(event(siteA("boom"), T0 + i));
		}
		LogEvent repeat = event(siteA("boom"), T0 + 3);
		String headerOnly = layout("%p %m%n%xwEx{1}").toSerializable(repeat);
		assertThat(this.layout.toSerializable(repeat)).isEqualTo(
				headerOnly.replace("java.lang.IllegalStateException: boom", siteAOneLiner() + elided(4, T0, T0)));
	}

	@Test
	void distinctKindsAreThrottledSeparately() {
		for (int i = 0; i < 5; i++) {
			this.layout.toSerializable(event(siteA("boom"), T0 + i));
		}
		// Same class, another place.
		String otherSite = this.layout.toSerializable(event(siteB("boom"), T0 + 5));
		assertThat(otherSite).contains("\tat ").doesNotContain("stack trace elided");
		// Same class and frames, another cause.
		IllegalStateException template = siteA("boom");
		IllegalStateException otherCause = withTrace(
				new IllegalStateException("boom", new java.util.concurrent.TimeoutException()),
				template.getStackTrace());
		assertThat(this.layout.toSerializable(event(otherCause, T0 + 6))).contains("\tat ")
			.doesNotContain("stack trace elided");
		assertThat(this.layout.toSerializable(event(siteA("boom"), T0 + 7))).contains(elided(6, T0, T0));
	}

	@Test
	void aNewIntervalPrintsTheTraceAgainAndTheCountGoesOn() {
		for (int i = 0; i < 5; i++) {
			this.layout.toSerializable(event(siteA("boom"), T0 + i * 1000L));
		}
		long nextInterval = T0 + Duration.ofMinutes(1).toMillis();
		for (int i = 0; i < 3; i++) {
			assertThat(this.layout.toSerializable(event(siteA("boom"), nextInterval + i))).contains("\tat ")
				.doesNotContain("stack trace elided");
		}
		assertThat(this.layout.toSerializable(event(siteA("boom"), nextInterval + 3)))
			.contains(elided(9, T0, nextInterval));
	}

	@Test
	void aKindThatStaysAwayForAWholeIntervalIsCountedAnew() {
		for (int i = 0; i < 5; i++) {
			this.layout.toSerializable(event(siteA("boom"), T0 + i));
		}
		long back = T0 + 4 + Duration.ofMinutes(1).toMillis();
		for (int i = 0; i < 3; i++) {
			this.layout.toSerializable(event(siteA("boom"), back + i));
		}
		assertThat(this.layout.toSerializable(event(siteA("boom"), back + 3))).contains(elided(4, back, back));
	}

	@Test
	void firstNAndIntervalComeFromTheSettings() {
		StackTraceThrottling.configure(new StackTraceThrottling.Settings(1, Duration.ofSeconds(10), 10));
		assertThat(this.layout.toSerializable(event(siteA("boom"), T0))).contains("\tat ");
		assertThat(this.layout.toSerializable(event(siteA("boom"), T0 + 1))).contains(elided(2, T0, T0));
		assertThat(this.layout.toSerializable(event(siteA("boom"), T0 + 10_000))).contains("\tat ");
	}

	@Test
	void theKindMapStaysBoundedUnderManyDistinctKinds() {
		StackTraceThrottling.configure(new StackTraceThrottling.Settings(3, Duration.ofHours(1), 100));
		ThrottledThrowablePatternConverter converter = ThrottledThrowablePatternConverter
			.newInstance(this.configuration, new String[0]);
		IllegalStateException oldest = withTrace(new IllegalStateException("old"), frame("com.example.Old", 1));
		for (int i = 0; i < 4; i++) {
			assertThat(render(converter, oldest, T0 + i)).isEqualTo(i < 3);
		}
		for (int line = 1; line <= 10_000; line++) {
			IllegalStateException distinct = withTrace(new IllegalStateException("kind " + line),
					frame("com.example.Generated", line));
			assertThat(render(converter, distinct, T0 + 10 + line)).as("first of kind %d printed in full", line)
				.isTrue();
			assertThat(converter.rememberedKinds()).isLessThanOrEqualTo(100);
		}
		// Pushed out by newer kinds: its next occurrence is printed again.
		assertThat(render(converter, oldest, T0 + 20_000)).isTrue();
	}

	/** Renders one event; returns whether the stack trace was printed in full. */
	private static boolean render(ThrottledThrowablePatternConverter converter, Throwable thrown, long timeMillis) {
		StringBuilder buffer = new StringBuilder();
		converter.format(event(thrown, timeMillis), buffer);
		return buffer.indexOf("\tat ") >= 0;
	}

	@Test
	void aRepeatNeverShowsTheMessageWhereDriversPutCredentials() {
		for (int i = 0; i < 3; i++) {
			this.layout.toSerializable(event(siteA("boom"), T0 + i));
		}
		String rendered = this.layout.toSerializable(
				event(siteA("Cannot connect to 'https://svc:Hunter2Secret@inventory/42'\nline two"), T0 + 3));
		assertThat(throwableLines(rendered)).containsExactly(siteAOneLiner() + elided(4, T0, T0));
		assertThat(rendered).doesNotContain("Hunter2Secret").doesNotContain("line two").doesNotContain("svc");
	}

	@Test
	void aRepeatWithoutCauseOrFramesShowsItsClass() {
		for (int i = 0; i < 4; i++) {
			this.layout.toSerializable(event(withTrace(new NullPointerException(), frame("com.example.A", 1)), T0 + i));
		}
		String rendered = this.layout
			.toSerializable(event(withTrace(new NullPointerException(), frame("com.example.A", 1)), T0 + 4));
		assertThat(throwableLines(rendered)).containsExactly(
				"java.lang.NullPointerException at com.example.A.call(com.example.A.java:1)" + elided(5, T0, T0));
		for (int i = 0; i < 4; i++) {
			this.layout.toSerializable(event(withTrace(new IllegalStateException("x")), T0 + i));
		}
		assertThat(throwableLines(this.layout.toSerializable(event(withTrace(new IllegalStateException("x")), T0 + 4))))
			.containsExactly("java.lang.IllegalStateException" + elided(5, T0, T0));
	}

	@Test
	void theThrowSiteIsTheFirstFrameOutsideTheJdk() {
		IllegalStateException inJdk = withTrace(new IllegalStateException("x"), jdkFrame("java.util.Objects", 1),
				frame("com.example.Caller", 7));
		for (int i = 0; i < 3; i++) {
			this.layout.toSerializable(event(inJdk, T0 + i));
		}
		assertThat(throwableLines(this.layout.toSerializable(event(inJdk, T0 + 3))))
			.containsExactly("java.lang.IllegalStateException at com.example.Caller.call(com.example.Caller.java:7)"
					+ elided(4, T0, T0));
	}

	@Test
	void anEventWithoutThrowableRendersNothing() {
		LogEvent plain = Log4jLogEvent.newBuilder()
			.setLevel(Level.ERROR)
			.setMessage(new SimpleMessage("no throwable"))
			.build();
		assertThat(this.layout.toSerializable(plain)).isEqualTo("ERROR no throwable" + NL);
	}

	@Test
	void withAPropertyOptionItRendersAsXwExWithoutThrottling() {
		PatternLayout messageOnly = layout("%p %m%n%throttledEx{short.message}");
		for (int i = 0; i < 5; i++) {
			LogEvent repeat = event(siteA("boom " + i), T0 + i);
			assertThat(messageOnly.toSerializable(repeat))
				.isEqualTo(layout("%p %m%n%xwEx{short.message}").toSerializable(repeat));
		}
	}

	@Test
	void everyElisionIsCounted() {
		long before = StackTraceThrottling.elidedCount();
		for (int i = 0; i < 10; i++) {
			this.layout.toSerializable(event(siteA("boom"), T0 + i));
		}
		assertThat(StackTraceThrottling.elidedCount() - before).isEqualTo(7);
	}

}
