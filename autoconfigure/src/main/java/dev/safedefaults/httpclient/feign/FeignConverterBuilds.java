package dev.safedefaults.httpclient.feign;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import feign.codec.Decoder;
import feign.codec.Encoder;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;

/**
 * What the Feign clients' codecs build once the application serves traffic: the run-time
 * side of {@code feign.per-call-converters}. Nothing here calls the application's code or
 * reads another library's private state; two observers report to it from inside each
 * client's context:
 * <ul>
 * <li>{@link ConverterBuildCounter}, an {@code HttpMessageConverterCustomizer} bean:
 * OpenFeign's {@code FeignHttpMessageConverters} runs every such bean of the client's
 * context each time it builds its converters, so a codec that builds one per call (the
 * incident's shape on OpenFeign 5) runs it per call. Once the application is ready, every
 * build is counted; at {@value #FIRST_REPORT} builds for one client, then every tenfold,
 * the finding is published with the count.</li>
 * <li>{@link CodecAllocationCapability}, a Feign {@code Capability}: a codec that builds
 * another converters type (Framework's or Boot's {@code HttpMessageConverters}, a list)
 * from a factory it holds runs no customizer, so its first {@value #MEASURED_CALLS} calls
 * after startup are measured instead; when every one of them allocated at least
 * {@link #HEAVY_CALL_BYTES} beyond four times its body, the finding is published
 * once.</li>
 * </ul>
 * The finding is published under {@value #SOURCE}, as
 * {@code restclient.per-request-build} is, and replaced with newer counts.
 */
final class FeignConverterBuilds implements ApplicationListener<ApplicationReadyEvent> {

	static final String SOURCE = "feign.per-call-converters";

	/** Builds after startup, for one client, at which the finding is first published. */
	static final long FIRST_REPORT = 20;

	/** Calls measured, per codec, after startup. */
	static final int MEASURED_CALLS = 20;

	/**
	 * Bytes a call allocates, beyond four times its body, above which it looks like one
	 * that built converters. Measured on a small JSON body (FeignConvertersChecksTests):
	 * 3 KB per decode with converters built once, 46 KB when the codec builds one Jackson
	 * converter per call, 73 KB when it builds Framework's defaults per call.
	 */
	static final long HEAVY_CALL_BYTES = 32 * 1024;

	/** Builds whose stack is walked to name the codec, per client. */
	private static final long MAX_WALKS = 16;

	private final ObjectProvider<FindingsStore> store;

	private final Map<String, ClientBuilds> clients = new ConcurrentSkipListMap<>();

	private volatile boolean ready;

	FeignConverterBuilds(ObjectProvider<FindingsStore> store) {
		this.store = store;
	}

	@Override
	public void onApplicationEvent(ApplicationReadyEvent event) {
		this.ready = true;
	}

	/**
	 * Whether the application is ready: builds and calls before it are startup's.
	 * @return {@code true} once it is ready
	 */
	boolean isReady() {
		return this.ready;
	}

	/**
	 * Called by a client's {@link ConverterBuildCounter} each time a
	 * {@code FeignHttpMessageConverters} of that client builds its converters.
	 * @param client the client's name
	 */
	void convertersBuilt(String client) {
		if (!this.ready) {
			return;
		}
		ClientBuilds builds = builds(client);
		long count = builds.built.incrementAndGet();
		if (count <= MAX_WALKS) {
			codecFrame().ifPresent(builds.codecs::add);
		}
		long threshold = builds.nextReport.get();
		if (count >= threshold && builds.nextReport.compareAndSet(threshold, threshold * 10)) {
			report();
		}
	}

	/**
	 * Called by a codec wrapper of {@link CodecAllocationCapability} once its measured
	 * calls were all heavy.
	 * @param client the client's name
	 * @param codec what it was: {@code decoder LegacyDecoder (its field converters)}
	 * @param leastBytes the least any measured call allocated beyond its body
	 */
	void heavyCalls(String client, String codec, long leastBytes) {
		ClientBuilds builds = builds(client);
		builds.heavy.put(codec, leastBytes);
		report();
	}

	/**
	 * The builds counted for one client since the application was ready.
	 * @param client the client's name
	 * @return the count
	 */
	long builtAfterReady(String client) {
		ClientBuilds builds = this.clients.get(client);
		return (builds != null) ? builds.built.get() : 0;
	}

	private ClientBuilds builds(String client) {
		return this.clients.computeIfAbsent(client, (name) -> new ClientBuilds());
	}

	private synchronized void report() {
		FindingsStore findings = this.store.getIfAvailable();
		if (findings == null) {
			return;
		}
		List<Finding> raised = new ArrayList<>();
		this.clients.forEach((client, builds) -> {
			List<String> evidence = new ArrayList<>();
			long built = builds.built.get();
			if (built >= FIRST_REPORT) {
				String codecs = builds.codecs.isEmpty() ? "encoder or decoder" : String.join(" and ", builds.codecs);
				evidence.add(codecs + " (FeignHttpMessageConverters built " + built
						+ " times since the application was ready)");
			}
			builds.heavy.forEach((codec, bytes) -> evidence.add(codec + " (each of its first " + MEASURED_CALLS
					+ " calls after startup allocated at least " + (bytes / 1024) + " KB beyond four times its body)"));
			if (!evidence.isEmpty()) {
				raised.add(FeignFindings.PER_CALL_CONVERTERS.raise(PerCallConvertersCheck.subject(client),
						String.join(" and its ", evidence)));
			}
		});
		findings.publish(SOURCE, raised);
	}

	/**
	 * The codec method that asked for the converters being built: the innermost frame of
	 * a class that is a Feign {@link Decoder} or {@link Encoder}.
	 */
	private static Optional<String> codecFrame() {
		return StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE)
			.walk((frames) -> frames
				.filter((frame) -> Decoder.class.isAssignableFrom(frame.getDeclaringClass())
						|| Encoder.class.isAssignableFrom(frame.getDeclaringClass()))
				.findFirst()
				.map((frame) -> (Decoder.class.isAssignableFrom(frame.getDeclaringClass()) ? "decoder " : "encoder ")
						+ simpleName(frame.getDeclaringClass()) + "." + frame.getMethodName()));
	}

	static String simpleName(Class<?> type) {
		String name = type.getSimpleName();
		return name.isEmpty() ? type.getName() : name;
	}

	private static final class ClientBuilds {

		private final AtomicLong built = new AtomicLong();

		private final AtomicLong nextReport = new AtomicLong(FIRST_REPORT);

		private final Set<String> codecs = new ConcurrentSkipListSet<>();

		private final Map<String, Long> heavy = new ConcurrentSkipListMap<>();

	}

}
