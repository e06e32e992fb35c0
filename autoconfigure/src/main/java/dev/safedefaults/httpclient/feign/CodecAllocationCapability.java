package dev.safedefaults.httpclient.feign;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import feign.Capability;
import feign.RequestTemplate;
import feign.Response;
import feign.codec.Decoder;
import feign.codec.EncodeException;
import feign.codec.Encoder;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectFactory;
import org.springframework.cloud.openfeign.support.FeignHttpMessageConverters;
import org.springframework.core.ResolvableType;

/**
 * Watches the first calls, after startup, of an application's own codec that holds a
 * converters factory of a type OpenFeign does not build (an {@code ObjectFactory},
 * {@code ObjectProvider} or {@code Supplier} of Framework's or Boot's
 * {@code HttpMessageConverters}, or of a list): such a codec may build converters per
 * call without running any customizer, so {@link ConverterBuildCounter} cannot see it.
 * <p>
 * Whether a codec holds such a factory is read from its class's declared field types
 * (public metadata): no field value is read, nothing of the codec is called but its own
 * {@code encode}/{@code decode} when the application calls the client. Only classes
 * outside Feign's, OpenFeign's and Spring's packages are looked at; every other codec is
 * returned as it is, unwrapped. A watched codec's first
 * {@value FeignConverterBuilds#MEASURED_CALLS} calls after startup are measured with the
 * thread's allocation counter; after them the wrapper only delegates.
 */
public final class CodecAllocationCapability implements Capability {

	private static final com.sun.management.@Nullable ThreadMXBean THREADS = threads();

	private final String client;

	private final FeignConverterBuilds builds;

	CodecAllocationCapability(String client, FeignConverterBuilds builds) {
		this.client = client;
		this.builds = builds;
	}

	@Override
	public Decoder enrich(Decoder decoder) {
		List<String> fields = convertersFactoryFields(decoder.getClass());
		if (THREADS == null || fields.isEmpty()) {
			return decoder;
		}
		return new WatchedDecoder(decoder, measurement("decoder", decoder, fields));
	}

	@Override
	public Encoder enrich(Encoder encoder) {
		List<String> fields = convertersFactoryFields(encoder.getClass());
		if (THREADS == null || fields.isEmpty()) {
			return encoder;
		}
		return new WatchedEncoder(encoder, measurement("encoder", encoder, fields));
	}

	private Measurement measurement(String kind, Object codec, List<String> fields) {
		String name = FeignConverterBuilds.simpleName(codec.getClass());
		List<String> paths = fields.stream().map((field) -> name + "." + field).toList();
		return new Measurement(this.client, kind + " " + String.join(", ", paths), this.builds);
	}

	/**
	 * The fields of an application's codec class whose declared type is a factory that
	 * may yield converters other than {@link FeignHttpMessageConverters}.
	 * @param type the codec's class
	 * @return the fields' names; empty for Feign's, OpenFeign's and Spring's classes
	 */
	static List<String> convertersFactoryFields(Class<?> type) {
		List<String> names = new ArrayList<>();
		for (Class<?> candidate = type; candidate != null
				&& !isLibrary(candidate); candidate = candidate.getSuperclass()) {
			for (Field field : candidate.getDeclaredFields()) {
				if (yieldsOtherConverters(field, ObjectFactory.class) || yieldsOtherConverters(field, Supplier.class)) {
					names.add(field.getName());
				}
			}
		}
		return names;
	}

	private static boolean yieldsOtherConverters(Field field, Class<?> factoryType) {
		if (!factoryType.isAssignableFrom(field.getType())) {
			return false;
		}
		ResolvableType yielded = ResolvableType.forField(field).as(factoryType).getGeneric(0);
		Class<?> resolved = yielded.resolve();
		if (resolved == null || resolved == Object.class) {
			return true;
		}
		return !FeignHttpMessageConverters.class.isAssignableFrom(resolved)
				&& (Iterable.class.isAssignableFrom(resolved) || resolved.getName().endsWith(".HttpMessageConverters"));
	}

	private static boolean isLibrary(Class<?> type) {
		String name = type.getName();
		return type == Object.class || name.startsWith("java.") || name.startsWith("feign.")
				|| name.startsWith("org.springframework.");
	}

	private static com.sun.management.@Nullable ThreadMXBean threads() {
		try {
			if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean threads
					&& threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled()) {
				return threads;
			}
		}
		catch (RuntimeException | LinkageError ex) {
			// no allocation counter on this JVM: codecs are not watched
		}
		return null;
	}

	private static long allocated() {
		com.sun.management.ThreadMXBean threads = THREADS;
		return (threads != null) ? threads.getCurrentThreadAllocatedBytes() : 0;
	}

	/**
	 * The measured calls of one watched codec.
	 */
	static final class Measurement {

		private final String client;

		private final String codec;

		private final FeignConverterBuilds builds;

		private final AtomicInteger started = new AtomicInteger();

		private final AtomicInteger recorded = new AtomicInteger();

		private final AtomicLong least = new AtomicLong(Long.MAX_VALUE);

		Measurement(String client, String codec, FeignConverterBuilds builds) {
			this.client = client;
			this.codec = codec;
			this.builds = builds;
		}

		/**
		 * Whether to measure the call about to start.
		 * @return {@code true} for the first calls after startup
		 */
		boolean measure() {
			return this.builds.isReady() && this.started.get() < FeignConverterBuilds.MEASURED_CALLS
					&& this.started.incrementAndGet() <= FeignConverterBuilds.MEASURED_CALLS;
		}

		void record(long bytes) {
			this.least.accumulateAndGet(bytes, Math::min);
			if (this.recorded.incrementAndGet() == FeignConverterBuilds.MEASURED_CALLS
					&& this.least.get() >= FeignConverterBuilds.HEAVY_CALL_BYTES) {
				this.builds.heavyCalls(this.client, this.codec, this.least.get());
			}
		}

		String codec() {
			return this.codec;
		}

	}

	/**
	 * A decoder whose first calls after startup are measured.
	 */
	static final class WatchedDecoder implements Decoder {

		private final Decoder delegate;

		private final Measurement measurement;

		WatchedDecoder(Decoder delegate, Measurement measurement) {
			this.delegate = delegate;
			this.measurement = measurement;
		}

		@Override
		public @Nullable Object decode(Response response, Type type) throws IOException {
			if (!this.measurement.measure()) {
				return this.delegate.decode(response, type);
			}
			long before = allocated();
			Object decoded = this.delegate.decode(response, type);
			Integer length = (response.body() != null) ? response.body().length() : null;
			this.measurement.record(allocated() - before - 4L * ((length != null) ? length : 0));
			return decoded;
		}

	}

	/**
	 * An encoder whose first calls after startup are measured.
	 */
	static final class WatchedEncoder implements Encoder {

		private final Encoder delegate;

		private final Measurement measurement;

		WatchedEncoder(Encoder delegate, Measurement measurement) {
			this.delegate = delegate;
			this.measurement = measurement;
		}

		@Override
		public void encode(Object object, Type bodyType, RequestTemplate template) throws EncodeException {
			if (!this.measurement.measure()) {
				this.delegate.encode(object, bodyType, template);
				return;
			}
			long before = allocated();
			this.delegate.encode(object, bodyType, template);
			byte[] body = template.body();
			this.measurement.record(allocated() - before - 4L * ((body != null) ? body.length : 0));
		}

	}

}
