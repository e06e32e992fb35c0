package dev.safedefaults.httpclient;

import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import dev.safedefaults.support.LibraryFrames;

/**
 * Counts the clients made from one of Boot's prototype client builders
 * ({@code RestClient.Builder}, {@code WebClient.Builder}) once the application is ready,
 * and names the first few callers: the one way each client kind finds incident 1 in
 * Spring's own client API, written once.
 * <p>
 * Boot's builders are prototype beans: every injection point, every
 * {@code ObjectProvider.getObject()}, gets a new builder, and every {@code build()}
 * assembles a client again. Done once at startup that is free; done while the application
 * serves traffic it is incident 1 again. Once ready, every builder handed out and every
 * client built is counted, and the first few callers are named (a stack walk, only after
 * startup, for at most {@value #MAX_CALLERS} distinct callers among the first
 * {@value #MAX_WALKS} events); at {@value #FIRST_REPORT}, then every tenfold, the
 * {@link Report} is given the counts.
 */
public final class PerRequestBuilds {

	/** The count at which the first report is made; then every tenfold. */
	public static final long FIRST_REPORT = 20;

	/** At most this many distinct callers are named. */
	public static final int MAX_CALLERS = 8;

	/**
	 * Callers are looked for in the first this many counted events only (a stack walk
	 * each).
	 */
	public static final long MAX_WALKS = 1000;

	private final Set<String> ownClasses;

	private final Report report;

	private final AtomicLong handedOut = new AtomicLong();

	private final AtomicLong built = new AtomicLong();

	private final AtomicLong nextReport = new AtomicLong(FIRST_REPORT);

	/**
	 * Events of both kinds that looked for their caller: the walks are bounded together.
	 */
	private final AtomicLong walks = new AtomicLong();

	private final Map<String, AtomicLong> callers = new ConcurrentHashMap<>();

	private volatile boolean ready;

	/**
	 * Creates the counts of one client kind.
	 * @param ownClasses the feature's classes that count (skipped when naming a caller)
	 * @param report what to do at each report
	 */
	public PerRequestBuilds(Set<Class<?>> ownClasses, Report report) {
		this.ownClasses = ownClasses.stream().map(Class::getName).collect(Collectors.toCollection(HashSet::new));
		this.ownClasses.add(PerRequestBuilds.class.getName());
		this.report = report;
	}

	/**
	 * Counting starts: the application is ready.
	 */
	public void ready() {
		this.ready = true;
	}

	/**
	 * Called for every builder Boot hands out.
	 */
	public void builderHandedOut() {
		if (this.ready) {
			count(this.handedOut);
		}
	}

	/**
	 * Called for every client built from one of Boot's builders.
	 */
	public void clientBuilt() {
		if (this.ready) {
			count(this.built);
		}
	}

	/**
	 * Builders handed out since the application was ready.
	 * @return the count
	 */
	public long handedOutAfterReady() {
		return this.handedOut.get();
	}

	/**
	 * Clients built since the application was ready.
	 * @return the count
	 */
	public long builtAfterReady() {
		return this.built.get();
	}

	private void count(AtomicLong counter) {
		long count = counter.incrementAndGet();
		if (this.callers.size() < MAX_CALLERS && this.walks.incrementAndGet() <= MAX_WALKS) {
			this.callers.computeIfAbsent(caller(), (key) -> new AtomicLong()).incrementAndGet();
		}
		long threshold = this.nextReport.get();
		if (count >= threshold && this.nextReport.compareAndSet(threshold, threshold * 10)) {
			Map<String, Long> named = new TreeMap<>();
			this.callers.forEach((caller, calls) -> named.put(caller, calls.get()));
			this.report.report(this.handedOut.get(), this.built.get(),
					named.isEmpty() ? "no caller found" : named.toString());
		}
	}

	private String caller() {
		Optional<String> frame = StackWalker.getInstance()
			.walk((frames) -> frames
				.filter((candidate) -> LibraryFrames.isApplications(candidate.getClassName(), candidate.getMethodName())
						&& !isOwn(candidate.getClassName()))
				.findFirst()
				.map((candidate) -> candidate.getClassName() + "." + candidate.getMethodName()
						+ ((candidate.getLineNumber() > 0) ? ":" + candidate.getLineNumber() : "")));
		return frame.orElse("unknown caller");
	}

	/**
	 * The counting feature's own classes (a library's, Spring's proxies and the JDK's are
	 * told apart by the one table of library frames).
	 */
	private boolean isOwn(String className) {
		return className.contains("$$SpringCGLIB$$")
				|| this.ownClasses.stream().anyMatch((own) -> isClassOrNested(className, own));
	}

	private static boolean isClassOrNested(String className, String own) {
		return className.equals(own) || className.startsWith(own + "$");
	}

	/**
	 * What a client kind does at each report: raise its finding with the counts.
	 */
	@FunctionalInterface
	public interface Report {

		/**
		 * Reports the counts.
		 * @param handedOut builders handed out since ready
		 * @param built clients built since ready
		 * @param callers the callers named, with their counts, or "no caller found"
		 */
		void report(long handedOut, long built, String callers);

	}

}
