package dev.safedefaults.httpclient.timeouts;

import java.io.IOException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.safedefaults.testsupport.SilentDownstream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.web.client.RestClientException;
import org.springframework.web.client.RestClient;

import static dev.safedefaults.httpclient.timeouts.TimedCall.assertGivesUpAfter;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What "read timeout" means for the factories Boot builds from its settings, measured on
 * a body that streams for 3 s with a line every 300 ms, under a 1 s read timeout: on the
 * JDK client (Boot's choice when no other library is present) Spring Framework 7.0 makes
 * it a deadline on the whole exchange and closes a body still flowing, at the deadline;
 * on HttpURLConnection it bounds the silence between two reads. And what 0 and a negative
 * value do on the JDK client. docs/timeouts.md carries the table.
 */
class ReadTimeoutMeaningTests {

	private static final Duration ONE_SECOND = Duration.ofSeconds(1);

	private static final HttpClientSettings ONE_SECOND_READ = HttpClientSettings.defaults().withReadTimeout(ONE_SECOND);

	private static final String STREAM = "/stream?chunks=10&every=300";

	private static SlowStreamServer server;

	private static SilentDownstream silent;

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
	void onTheJdkClientTheReadTimeoutIsADeadlineThatCutsABodyStillFlowingAtTheDeadline() throws Exception {
		RestClient client = jdk(ONE_SECOND_READ);
		RestClientException cut = assertGivesUpAfter(ONE_SECOND,
				() -> client.get().uri(server.url() + STREAM).retrieve().body(String.class));
		// Framework closes the body stream: the reader sees "closed", no word of a
		// timeout.
		assertThat(cut).rootCause().isInstanceOf(IOException.class).hasMessage("closed");
	}

	@Test
	void onTheJdkClientABodyFinishedWithinTheReadTimeoutIsReadCompletely() {
		assertThat(jdk(ONE_SECOND_READ).get()
			.uri(server.url() + "/stream?chunks=3&every=100")
			.retrieve()
			.body(String.class)).hasLineCount(3);
	}

	@Test
	void onHttpUrlConnectionABodyNeverSilentForTheReadTimeoutIsReadCompletely() {
		RestClient client = RestClient.builder()
			.requestFactory(ClientHttpRequestFactoryBuilder.simple().build(ONE_SECOND_READ))
			.build();
		assertThat(client.get().uri(server.url() + STREAM).retrieve().body(String.class)).hasLineCount(10);
	}

	@Test
	void onTheJdkClientANegativeReadTimeoutFailsEveryCallAtOnce() throws Exception {
		RestClient client = jdk(HttpClientSettings.defaults().withReadTimeout(Duration.ofSeconds(-1)));
		RestClientException failure = assertGivesUpAfter(Duration.ZERO,
				() -> client.get().uri(server.url() + "/stream?chunks=1&every=1").retrieve().body(String.class));
		assertThat(failure).rootCause().isInstanceOf(HttpTimeoutException.class);
	}

	@Test
	void onTheJdkClientAZeroReadTimeoutIsNone() throws Exception {
		RestClient client = jdk(HttpClientSettings.defaults().withReadTimeout(Duration.ZERO));
		CompletableFuture<@Nullable String> call = CompletableFuture
			.supplyAsync(() -> client.get().uri(silent.url() + "/anything").retrieve().body(String.class));
		// Still waiting well past any "at once": the call is ended by closing the server.
		assertThatExceptionOfType(TimeoutException.class).isThrownBy(() -> call.get(1500, TimeUnit.MILLISECONDS));
		call.cancel(true);
	}

	private static RestClient jdk(HttpClientSettings settings) {
		return RestClient.builder().requestFactory(ClientHttpRequestFactoryBuilder.jdk().build(settings)).build();
	}

}
