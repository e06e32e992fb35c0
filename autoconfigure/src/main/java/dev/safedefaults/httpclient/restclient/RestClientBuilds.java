package dev.safedefaults.httpclient.restclient;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.support.LibraryFrames;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;

/**
 * Counts the clients made from Boot's {@code RestClient.Builder} once the application is
 * ready, and what each HTTP service group's converters turned out to be at startup.
 * <p>
 * Boot's builder is a prototype bean: every injection point, every
 * {@code ObjectProvider.getObject()}, gets a new builder, and every {@code build()}
 * assembles a client and its converters. Done once at startup that is free; done while
 * the application serves traffic it is incident 1 again. Once ready, every builder handed
 * out and every client built is counted, and the first few callers are named (a stack
 * walk, only after startup, for at most {@value #MAX_CALLERS} distinct callers among the
 * first {@value #MAX_WALKS} events); at {@value #FIRST_REPORT}, then every tenfold, the
 * {@code restclient.per-request-build} finding is published with the counts.
 */
final class RestClientBuilds implements ApplicationListener<ApplicationReadyEvent> {

	static final long FIRST_REPORT = 20;

	static final int MAX_CALLERS = 8;

	/**
	 * Callers are looked for in the first this many counted events only (a stack walk
	 * each).
	 */
	static final long MAX_WALKS = 1000;

	static final String SOURCE = "restclient.per-request-build";

	private final ObjectProvider<FindingsStore> store;

	private final AtomicLong handedOut = new AtomicLong();

	private final AtomicLong built = new AtomicLong();

	private final AtomicLong nextReport = new AtomicLong(FIRST_REPORT);

	/**
	 * Events of both kinds that looked for their caller: the walks are bounded together.
	 */
	private final AtomicLong walks = new AtomicLong();

	private final Map<String, AtomicLong> callers = new ConcurrentHashMap<>();

	private final Map<String, GroupConverters> groups = new ConcurrentSkipListMap<>();

	private volatile boolean ready;

	RestClientBuilds(ObjectProvider<FindingsStore> store) {
		this.store = store;
	}

	@Override
	public void onApplicationEvent(ApplicationReadyEvent event) {
		this.ready = true;
	}

	/**
	 * Called for every builder Boot hands out (and every group's builder).
	 */
	void builderHandedOut() {
		if (this.ready) {
			count(this.handedOut);
		}
	}

	/**
	 * Called for every client built from a builder that carries the shared set.
	 */
	void clientBuilt() {
		if (this.ready) {
			count(this.built);
		}
	}

	/**
	 * Records what a group's client got, when it is built (at startup).
	 * @param group what its converters were
	 */
	void groupBuilt(GroupConverters group) {
		this.groups.put(group.name(), group);
	}

	/**
	 * The groups recorded so far, by name.
	 * @return the groups
	 */
	List<GroupConverters> groups() {
		return List.copyOf(this.groups.values());
	}

	/**
	 * Builders handed out since the application was ready.
	 * @return the count
	 */
	long handedOutAfterReady() {
		return this.handedOut.get();
	}

	/**
	 * Clients built since the application was ready.
	 * @return the count
	 */
	long builtAfterReady() {
		return this.built.get();
	}

	private void count(AtomicLong counter) {
		long count = counter.incrementAndGet();
		if (this.callers.size() < MAX_CALLERS && this.walks.incrementAndGet() <= MAX_WALKS) {
			this.callers.computeIfAbsent(caller(), (key) -> new AtomicLong()).incrementAndGet();
		}
		long threshold = this.nextReport.get();
		if (count >= threshold && this.nextReport.compareAndSet(threshold, threshold * 10)) {
			report();
		}
	}

	private void report() {
		FindingsStore findings = this.store.getIfAvailable();
		if (findings == null) {
			return;
		}
		Map<String, Long> named = new TreeMap<>();
		this.callers.forEach((caller, count) -> named.put(caller, count.get()));
		Finding finding = RestClientFindings.PER_REQUEST_BUILD.raise("Boot's RestClient.Builder", this.handedOut.get(),
				this.built.get(), named.isEmpty() ? "no caller found" : named.toString());
		findings.publish(SOURCE, List.of(finding));
	}

	private static String caller() {
		Optional<String> frame = StackWalker.getInstance()
			.walk((frames) -> frames.filter(
					(candidate) -> LibraryFrames.isApplications(candidate.getClassName(), candidate.getMethodName()))
				.findFirst()
				.map((candidate) -> candidate.getClassName() + "." + candidate.getMethodName()
						+ ((candidate.getLineNumber() > 0) ? ":" + candidate.getLineNumber() : "")));
		return frame.orElse("unknown caller");
	}

	/**
	 * What one HTTP service group's client got.
	 *
	 * @param name the group's name
	 * @param exchangesObjects whether one of its interfaces sends or receives objects
	 * (not only strings, bytes or nothing)
	 * @param json whether its converters read and write JSON
	 * @param shared whether it carries the starter's shared set
	 * @param defaults the default-only converters it carries (resources, XML, other
	 * formats), by simple name
	 */
	record GroupConverters(String name, boolean exchangesObjects, boolean json, boolean shared, List<String> defaults) {
	}

}
