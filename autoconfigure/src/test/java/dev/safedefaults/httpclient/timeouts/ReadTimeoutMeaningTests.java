package dev.safedefaults.httpclient.timeouts;

import java.io.IOException;
import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What "read timeout" means for the factories Boot builds from its settings, measured on
 * a body that streams for 3 s with a line every 300 ms, under a 1 s read timeout: on the
 * JDK client (Boot's choice when no other library is present) Spring Framework 7.0 makes
 * it a deadline on the whole exchange and closes a body still flowing; on
 * HttpURLConnection it bounds the silence between two reads. docs/timeouts.md carries the
 * table.
 */
class ReadTimeoutMeaningTests {

	private static final HttpClientSettings ONE_SECOND_READ = HttpClientSettings.defaults()
		.withReadTimeout(Duration.ofSeconds(1));

	private static final String STREAM = "/stream?chunks=10&every=300";

	private static SlowStreamServer server;

	@BeforeAll
	static void startServer() throws IOException {
		server = new SlowStreamServer();
	}

	@AfterAll
	static void stopServer() {
		server.close();
	}

	@Test
	void onTheJdkClientTheReadTimeoutIsADeadlineThatCutsABodyStillFlowing() {
		RestClient client = RestClient.builder()
			.requestFactory(ClientHttpRequestFactoryBuilder.jdk().build(ONE_SECOND_READ))
			.build();
		assertThatExceptionOfType(RestClientException.class)
			.isThrownBy(() -> client.get().uri(server.url() + STREAM).retrieve().body(String.class));
	}

	@Test
	void onTheJdkClientABodyFinishedWithinTheReadTimeoutIsReadCompletely() {
		RestClient client = RestClient.builder()
			.requestFactory(ClientHttpRequestFactoryBuilder.jdk().build(ONE_SECOND_READ))
			.build();
		assertThat(client.get().uri(server.url() + "/stream?chunks=3&every=100").retrieve().body(String.class))
			.hasLineCount(3);
	}

	@Test
	void onHttpUrlConnectionABodyNeverSilentForTheReadTimeoutIsReadCompletely() {
		RestClient client = RestClient.builder()
			.requestFactory(ClientHttpRequestFactoryBuilder.simple().build(ONE_SECOND_READ))
			.build();
		assertThat(client.get().uri(server.url() + STREAM).retrieve().body(String.class)).hasLineCount(10);
	}

}
