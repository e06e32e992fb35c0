package dev.safedefaults.httpclient;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.HttpOutputMessage;
import org.springframework.http.MediaType;
import org.springframework.http.converter.ByteArrayHttpMessageConverter;
import org.springframework.http.converter.FormHttpMessageConverter;
import org.springframework.http.converter.HttpMessageConverter;

/**
 * Checks, once the shared set is built, that it can do what the clients' usual converters
 * can: write a body and read it back as a client would choose its converter (the first
 * that can), for JSON objects, text and bytes; and that every converter the application
 * brought (its own beans, its customizers' converters) is in it. Only the converters that
 * Framework's defaults alone bring ({@link DefaultOnlyConverters}) are left out of the
 * set on purpose. Whatever the usual converters manage and the set does not is missing:
 * the caller then gives the clients their usual converters back.
 */
final class ConvertersGuard {

	private static final List<Probe> PROBES = List.of(
			new Probe("JSON objects (application/json)", Map.class, MediaType.APPLICATION_JSON,
					Map.of("safe-defaults", "probe")),
			new Probe("text (text/plain)", String.class, new MediaType("text", "plain", StandardCharsets.UTF_8),
					"safe-defaults probe \u00e9"),
			new Probe("bytes (application/octet-stream)", byte[].class, MediaType.APPLICATION_OCTET_STREAM,
					new byte[] { 1, 2, 3 }));

	private ConvertersGuard() {
	}

	/**
	 * What the set lacks that the usual converters have.
	 * @param set the starter's set
	 * @param usual what a client would have without the starter
	 * @return a description of each thing missing, empty when nothing is
	 */
	static List<String> missing(List<HttpMessageConverter<?>> set, List<HttpMessageConverter<?>> usual) {
		Set<String> missing = new LinkedHashSet<>();
		for (Probe probe : PROBES) {
			if (probe.roundTrips(usual) && !probe.roundTrips(set)) {
				missing.add(probe.description);
			}
		}
		for (HttpMessageConverter<?> converter : usual) {
			if (DefaultOnlyConverters.isDefaultOnly(converter) || converter instanceof FormHttpMessageConverter
					|| converter instanceof ByteArrayHttpMessageConverter) {
				continue;
			}
			if (set.stream().noneMatch((candidate) -> candidate.getClass() == converter.getClass())) {
				missing.add(converter.getClass().getName());
			}
		}
		return List.copyOf(missing);
	}

	private record Probe(String description, Class<?> type, MediaType mediaType, Object value) {

		/**
		 * Writes the value with the first converter that says it can, and reads it back
		 * with the first that says it can read it, as a client does.
		 */
		@SuppressWarnings({ "unchecked", "rawtypes" })
		boolean roundTrips(List<HttpMessageConverter<?>> converters) {
			try {
				HttpMessageConverter writer = first(converters, true);
				HttpMessageConverter reader = first(converters, false);
				if (writer == null || reader == null) {
					return false;
				}
				OutputMessage out = new OutputMessage();
				writer.write(this.value, this.mediaType, out);
				InputMessage in = new InputMessage(out.body.toByteArray(), this.mediaType);
				Object read = reader.read(this.type, in);
				return (this.value instanceof byte[] bytes)
						? (read instanceof byte[] readBytes) && Arrays.equals(bytes, readBytes)
						: Objects.equals(this.value, read);
			}
			catch (Exception | LinkageError ex) {
				return false;
			}
		}

		private @Nullable HttpMessageConverter<?> first(List<HttpMessageConverter<?>> converters, boolean write) {
			for (HttpMessageConverter<?> converter : converters) {
				if (write ? converter.canWrite(this.type, this.mediaType)
						: converter.canRead(this.type, this.mediaType)) {
					return converter;
				}
			}
			return null;
		}

	}

	private static final class OutputMessage implements HttpOutputMessage {

		private final HttpHeaders headers = new HttpHeaders();

		private final ByteArrayOutputStream body = new ByteArrayOutputStream();

		@Override
		public OutputStream getBody() {
			return this.body;
		}

		@Override
		public HttpHeaders getHeaders() {
			return this.headers;
		}

	}

	private static final class InputMessage implements HttpInputMessage {

		private final HttpHeaders headers = new HttpHeaders();

		private final byte[] body;

		InputMessage(byte[] body, MediaType mediaType) {
			this.body = body;
			this.headers.setContentType(mediaType);
		}

		@Override
		public InputStream getBody() {
			return new ByteArrayInputStream(this.body);
		}

		@Override
		public HttpHeaders getHeaders() {
			return this.headers;
		}

	}

}
