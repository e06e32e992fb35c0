package dev.safedefaults.httpclient.timeouts;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.http.HttpMethod;
import org.springframework.http.client.AbstractClientHttpRequestFactoryWrapper;
import org.springframework.http.client.ClientHttpRequest;
import org.springframework.http.client.ClientHttpRequestFactory;

/**
 * Boot's JDK client builder, whose factories say so when the read timeout ends an
 * exchange. On the JDK {@code HttpClient} Spring Framework 7.0 makes the read timeout a
 * deadline on the whole exchange and closes a body still flowing at the deadline: the
 * caller then sees {@code IOException: closed}, no word of a timeout (issue 43). A
 * factory built here with a read timeout fails such a read, and a response whose headers
 * missed the deadline, with a message that names the timeout, its value, where it came
 * from and the property that lifts it. Nothing else changes: the same factory, the same
 * timeout, the same moment; a factory without a read timeout is Boot's own.
 */
final class DeadlineNamingBuilder implements ClientHttpRequestFactoryBuilder<ClientHttpRequestFactory> {

	private final ClientHttpRequestFactoryBuilder<?> builder;

	private final TimeoutDecisions decisions;

	DeadlineNamingBuilder(ClientHttpRequestFactoryBuilder<?> builder, TimeoutDecisions decisions) {
		this.builder = builder;
		this.decisions = decisions;
	}

	@Override
	public ClientHttpRequestFactory build(@Nullable HttpClientSettings settings) {
		ClientHttpRequestFactory factory = this.builder.build(settings);
		Duration read = (settings != null) ? settings.readTimeout() : null;
		if (read == null || read.isZero() || read.isNegative()) {
			return factory;
		}
		return new DeadlineNamingFactory(factory, read, this.decisions.cutMessage(read));
	}

	@Override
	public String toString() {
		return "DeadlineNamingBuilder[" + this.builder + "]";
	}

	/** A factory whose requests name the deadline that ends them. */
	static final class DeadlineNamingFactory extends AbstractClientHttpRequestFactoryWrapper {

		private final Duration deadline;

		private final String message;

		DeadlineNamingFactory(ClientHttpRequestFactory factory, Duration deadline, String message) {
			super(factory);
			this.deadline = deadline;
			this.message = message;
		}

		@Override
		protected ClientHttpRequest createRequest(URI uri, HttpMethod httpMethod,
				ClientHttpRequestFactory requestFactory) throws IOException {
			return new DeadlineNamingRequest(requestFactory.createRequest(uri, httpMethod), this.deadline,
					this.message);
		}

	}

}
