package dev.safedefaults.logging.stacktrace;

import java.security.InvalidKeyException;
import java.sql.SQLException;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.config.DefaultConfiguration;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.apache.logging.log4j.message.SimpleMessage;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The full traces {@code %throttledEx} prints carry no credentials (issue 25): drivers
 * and HTTP clients put URLs with user-info and {@code password=} parameters in their
 * messages. Rendered through a real {@link PatternLayout}, as an appender does.
 */
class RenderedTraceMaskingTests {

	private static final String SECRET = "Hunter2Secret";

	private final DefaultConfiguration configuration = new DefaultConfiguration();

	private PatternLayout layout(String exceptionPattern) {
		return PatternLayout.newBuilder()
			.withPattern("%p %m%n" + exceptionPattern)
			.withConfiguration(this.configuration)
			.build();
	}

	private static LogEvent event(Throwable thrown) {
		return Log4jLogEvent.newBuilder()
			.setLoggerName("client")
			.setLevel(Level.ERROR)
			.setMessage(new SimpleMessage("request failed"))
			.setThrown(thrown)
			.build();
	}

	@Test
	void credentialsInTheMessagesOfTheThrowableItsCausesAndSuppressedAreMasked() {
		SQLException login = new SQLException(
				"Cannot create connection to jdbc:mysql://db:3306/orders?user=app&password=" + SECRET
						+ "&useSSL=false");
		IllegalStateException failure = new IllegalStateException(
				"[500] during [GET] to [https://svc:" + SECRET + "@inventory/42]", login);
		failure.addSuppressed(new IllegalArgumentException("retry refused: token=" + SECRET));
		String rendered = layout("%throttledEx").toSerializable(event(failure));
		assertThat(rendered).doesNotContain(SECRET)
			.contains("java.lang.IllegalStateException: [500] during [GET] to [https://******@inventory/42]")
			// In free text a JDBC URL's end is unknown: the starter's rule keeps its
			// scheme only.
			.contains("Caused by: java.sql.SQLException: Cannot create connection to jdbc:mysql:******")
			.contains("\tSuppressed: java.lang.IllegalArgumentException: retry refused: token=******")
			.contains("\tat " + getClass().getName()
					+ ".credentialsInTheMessagesOfTheThrowableItsCausesAndSuppressedAreMasked(");
	}

	@Test
	void aSecretOnAContinuationLineOfTheMessageIsMasked() {
		IllegalStateException failure = new IllegalStateException("connection refused\ndb.password: " + SECRET);
		assertThat(layout("%throttledEx").toSerializable(event(failure))).doesNotContain(SECRET)
			.contains("db.password: ******");
	}

	@Test
	void whatIsMaskedWithAPropertyOptionToo() {
		IllegalStateException failure = new IllegalStateException("to [https://svc:" + SECRET + "@inventory/42]");
		assertThat(layout("%throttledEx{short.message}").toSerializable(event(failure))).doesNotContain(SECRET)
			.contains("https://******@inventory/42");
	}

	@Test
	void aTraceWithoutCredentialsReadsExactlyAsBootsXwEx() {
		IllegalStateException failure = new IllegalStateException("first line\nsecond line: key-less text",
				new InvalidKeyException("wrong key size 7"));
		LogEvent event = event(failure);
		assertThat(layout("%throttledEx").toSerializable(event)).isEqualTo(layout("%xwEx").toSerializable(event))
			.contains("Caused by: java.security.InvalidKeyException: wrong key size 7");
	}

	@Test
	void onlyLinesThatCannotHoldASecretAreTakenForFrames() {
		assertThat(
				RenderedTraceMasking.isFrameLine("\tat org.example.Client.call(Client.java:42) ~[client-1.0.jar:1.0]"))
			.isTrue();
		assertThat(RenderedTraceMasking.isFrameLine(
				"\t\tat java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method) ~[?:?]"))
			.isTrue();
		assertThat(
				RenderedTraceMasking.isFrameLine("\tat app//org.example.A$B.lambda$run$0(A.java:7) [test-classes/:?]"))
			.isTrue();
		assertThat(RenderedTraceMasking.isFrameLine("\t... 12 more")).isTrue();
		// Message lines shaped like frames, each with something the masker would mask.
		assertThat(RenderedTraceMasking.isFrameLine("at org.example.A.b(A.java:1) ~[password=" + SECRET + "]"))
			.isFalse();
		assertThat(RenderedTraceMasking.isFrameLine("at https://svc:" + SECRET + "@inventory/42(x)")).isFalse();
		assertThat(RenderedTraceMasking.isFrameLine("at org.example.A.b(Bearer " + SECRET + ")")).isFalse();
		assertThat(RenderedTraceMasking.isFrameLine("at a.b(x) ~[file://u:" + SECRET + "@h]")).isFalse();
		assertThat(RenderedTraceMasking.isFrameLine("at a.b(x) ~[token " + SECRET + "]")).isFalse();
		assertThat(RenderedTraceMasking.isFrameLine("... " + SECRET + " more")).isFalse();
	}

}
