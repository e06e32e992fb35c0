package dev.safedefaults.httpclient.timeouts;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Map;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.StreamingHttpOutputMessage;
import org.springframework.http.client.ClientHttpRequest;
import org.springframework.http.client.ClientHttpResponse;

/**
 * One request of a {@link DeadlineNamingBuilder} factory: the JDK client's own request,
 * whose failures after the deadline say that the deadline ended them. A failure before
 * the deadline is passed on as it is: only one at or after it can be the deadline's (the
 * clock starts before the client's own, so it never names a failure that came sooner).
 */
final class DeadlineNamingRequest implements ClientHttpRequest, StreamingHttpOutputMessage {

	private final ClientHttpRequest request;

	private final Duration deadline;

	private final String message;

	DeadlineNamingRequest(ClientHttpRequest request, Duration deadline, String message) {
		this.request = request;
		this.deadline = deadline;
		this.message = message;
	}

	@Override
	public ClientHttpResponse execute() throws IOException {
		long start = System.nanoTime();
		try {
			return new Response(this.request.execute(), start);
		}
		catch (HttpTimeoutException ex) {
			HttpTimeoutException named = new HttpTimeoutException(
					this.message + " The response headers had not arrived: " + ex.getMessage());
			named.initCause(ex);
			throw named;
		}
	}

	@Override
	public void setBody(Body body) {
		((StreamingHttpOutputMessage) this.request).setBody(body);
	}

	@Override
	public OutputStream getBody() throws IOException {
		return this.request.getBody();
	}

	@Override
	public HttpHeaders getHeaders() {
		return this.request.getHeaders();
	}

	@Override
	public HttpMethod getMethod() {
		return this.request.getMethod();
	}

	@Override
	public URI getURI() {
		return this.request.getURI();
	}

	@Override
	public Map<String, Object> getAttributes() {
		return this.request.getAttributes();
	}

	private boolean pastDeadline(long start) {
		return System.nanoTime() - start >= this.deadline.toNanos();
	}

	private final class Response implements ClientHttpResponse {

		private final ClientHttpResponse response;

		private final long start;

		Response(ClientHttpResponse response, long start) {
			this.response = response;
			this.start = start;
		}

		@Override
		public InputStream getBody() throws IOException {
			return new FilterInputStream(this.response.getBody()) {

				@Override
				public int read() throws IOException {
					try {
						return super.read();
					}
					catch (IOException ex) {
						throw named(ex);
					}
				}

				@Override
				public int read(byte[] bytes, int offset, int length) throws IOException {
					try {
						return super.read(bytes, offset, length);
					}
					catch (IOException ex) {
						throw named(ex);
					}
				}

			};
		}

		private IOException named(IOException ex) {
			if (!pastDeadline(this.start)) {
				return ex;
			}
			return new IOException(
					DeadlineNamingRequest.this.message + " The body was still being read (" + ex.getMessage() + ").",
					ex);
		}

		@Override
		public HttpStatusCode getStatusCode() throws IOException {
			return this.response.getStatusCode();
		}

		@Override
		public String getStatusText() throws IOException {
			return this.response.getStatusText();
		}

		@Override
		public HttpHeaders getHeaders() {
			return this.response.getHeaders();
		}

		@Override
		public void close() {
			this.response.close();
		}

	}

}
