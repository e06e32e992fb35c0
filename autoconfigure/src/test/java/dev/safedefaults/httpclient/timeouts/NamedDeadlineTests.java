package dev.safedefaults.httpclient.timeouts;

import java.io.IOException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.testsupport.SilentDownstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

import static dev.safedefaults.httpclient.timeouts.TimedCall.assertGivesUpAfter;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * On the JDK client, Boot's choice when no other library is present, the read timeout is
 * a deadline on the whole exchange: a body still flowing at the deadline is cut at the
 * deadline, as without the starter, and the cut names the timeout, its value, where it
 * came from and the property that lifts it, where Framework alone says {@code closed}.
 * Covers {@code DeadlineNamingBuilder} and {@code DeadlineNamingRequest}: the cut body's
 * and the missed headers' failures name the deadline, a body read within it is whole.
 */
class NamedDeadlineTests {

	private static final Duration ONE_SECOND = Duration.ofSeconds(1);

	private static SlowStreamServer server;

	private static SilentDownstream silent;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(SafeDefaultsAutoConfiguration.class, HttpClientTimeoutsAutoConfiguration.class,
						HttpMessageConvertersAutoConfiguration.class, HttpClientAutoConfiguration.class,
						ImperativeHttpClientAutoConfiguration.class, RestClientAutoConfiguration.class))
		.withPropertyValues("spring.http.clients.imperative.factory=jdk");

	@BeforeAll
	static void startServers() throws IOException {
		server = new SlowStreamServer();
		silent = new SilentDownstream();
	}

	@AfterAll
	static void stopServers() throws IOException {
		server.close();
		silent.close();
	}

	@Test
	void aBodyStillFlowingAtTheStartersDeadlineIsCutThenWithAMessageThatNamesIt() {
		this.runner.withPropertyValues("safe-defaults.http-client-timeouts.read=1s").run((context) -> {
			RestClient client = context.getBean(RestClient.Builder.class).build();
			RestClientException cut = assertGivesUpAfter(ONE_SECOND,
					() -> client.get().uri(server.url() + "/stream?chunks=10&every=300").retrieve().body(String.class));
			assertThat(cut).rootCause().hasMessage("closed");
			assertThat(cut)
				.hasStackTraceContaining("The read timeout of 1s (safe-defaults) ended this exchange: on "
						+ "the JDK HttpClient a read timeout is a deadline on the whole exchange")
				.hasStackTraceContaining("raise spring.http.clients.read-timeout")
				.hasStackTraceContaining("The body was still being read (closed)");
		});
	}

	@Test
	void aResponseWhoseHeadersMissTheApplicationsDeadlineNamesItAsTheApplications() {
		this.runner.withPropertyValues("spring.http.clients.read-timeout=1s").run((context) -> {
			RestClient client = context.getBean(RestClient.Builder.class).build();
			RestClientException timedOut = assertGivesUpAfter(ONE_SECOND,
					() -> client.get().uri(silent.url() + "/anything").retrieve().body(String.class));
			assertThat(timedOut).cause()
				.isInstanceOf(HttpTimeoutException.class)
				.hasMessageStartingWith("The read timeout of 1s (the application's spring.http.clients.read-timeout, "
						+ "from \"spring.http.clients.read-timeout\" from property source \"test\") ended this exchange")
				.hasMessageContaining("The response headers had not arrived");
		});
	}

	@Test
	void aBodyFinishedWithinTheDeadlineIsReadCompletely() {
		this.runner.withPropertyValues("safe-defaults.http-client-timeouts.read=1s").run((context) -> {
			RestClient client = context.getBean(RestClient.Builder.class).build();
			assertThat(client.get().uri(server.url() + "/stream?chunks=3&every=100").retrieve().body(String.class))
				.hasLineCount(3);
		});
	}

}
