package dev.safedefaults.stuckrequests;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import dev.safedefaults.DurationText;
import dev.safedefaults.check.Finding;
import dev.safedefaults.stuckrequests.JdbcPools.PoolState;

/**
 * The requests past the threshold that wait on the same thing, from the same code: one
 * finding each, the largest first.
 *
 * @param waitingOn what they wait on
 * @param count how many
 * @param endpoints the endpoints they came in on, at most {@value #MAX_ENDPOINTS}
 * distinct ones
 * @param onVirtualThreads whether any of them runs on a virtual thread, which a thread
 * dump of {@code Thread.print} does not show
 * @param interrupted how many of them the deadline interrupted
 * @param cannotEnd how many of them are past the deadline in a wait an interrupt does not
 * end
 */
record WaitGroup(Wait waitingOn, int count, Set<String> endpoints, boolean onVirtualThreads, int interrupted,
		int cannotEnd) {

	/** The most groups reported: the top waits. */
	static final int TOP_WAITS = 5;

	static final int MAX_ENDPOINTS = 3;

	/** The thread dump that shows platform threads, with their locks, on every JDK. */
	static final String PLATFORM_THREAD_DUMP = "a thread dump shows the whole stack: jcmd <pid> Thread.print";

	/**
	 * The thread dump that shows virtual threads (JDK 21 or later, where they exist):
	 * {@code Thread.print} leaves them out.
	 */
	static final String VIRTUAL_THREAD_DUMP = "these requests run on virtual threads, which jcmd <pid> Thread.print "
			+ "does not list: jcmd <pid> Thread.dump_to_file -format=json <file> writes every thread's stack";

	/**
	 * Why a lock waited on from a virtual thread is named without its holder: what public
	 * API does not say, and where a reader finds it.
	 */
	static final String VIRTUAL_THREAD_HOLDER_WHY = "; its holder is not named: the JVM's thread bean gives no lock "
			+ "information for virtual threads, Thread and LockSupport name no owner, and a ReentrantLock's owner is "
			+ "protected API; only a whole thread dump says, which the watch does not take (jcmd <pid> "
			+ "Thread.dump_to_file -format=json <file> shows, on JDK 25, the monitor a virtual thread is blocked on "
			+ "and the thread whose monitorsOwned lists it; no owner of a ReentrantLock)";

	WaitGroup(Wait waitingOn, int count, Set<String> endpoints) {
		this(waitingOn, count, endpoints, false);
	}

	WaitGroup(Wait waitingOn, int count, Set<String> endpoints, boolean onVirtualThreads) {
		this(waitingOn, count, endpoints, onVirtualThreads, 0, 0);
	}

	/**
	 * Groups examined requests by their wait.
	 * @param requests the requests past the threshold, each examined
	 * @return the groups, the largest first, at most {@value #TOP_WAITS}
	 */
	static List<WaitGroup> of(List<InFlightRequest> requests) {
		Map<Wait, List<InFlightRequest>> byWait = new LinkedHashMap<>();
		for (InFlightRequest request : requests) {
			Wait wait = request.waitingOn();
			if (wait != null) {
				byWait.computeIfAbsent(wait, (key) -> new ArrayList<>()).add(request);
			}
		}
		List<WaitGroup> groups = new ArrayList<>();
		byWait.forEach((wait, waiting) -> {
			Set<String> distinct = new TreeSet<>();
			waiting.stream()
				.map(InFlightRequest::endpoint)
				.filter((endpoint) -> !endpoint.isEmpty())
				.forEach(distinct::add);
			Set<String> endpoints = new TreeSet<>(distinct.stream().limit(MAX_ENDPOINTS).toList());
			boolean virtual = waiting.stream().anyMatch((request) -> {
				Thread running = request.runningOn();
				return running != null && isVirtual(running);
			});
			int interrupted = (int) waiting.stream()
				.filter((request) -> request.deadline() == InFlightRequest.DeadlineOutcome.INTERRUPTED)
				.count();
			int cannotEnd = (int) waiting.stream()
				.filter((request) -> request.deadline() == InFlightRequest.DeadlineOutcome.CANNOT_END)
				.count();
			groups.add(new WaitGroup(wait, waiting.size(), endpoints, virtual, interrupted, cannotEnd));
		});
		groups.sort(Comparator.comparingInt(WaitGroup::count)
			.reversed()
			.thenComparing((group) -> group.waitingOn().kind())
			.thenComparing((group) -> group.waitingOn().target())
			.thenComparing((group) -> group.waitingOn().site()));
		return List.copyOf(groups.subList(0, Math.min(TOP_WAITS, groups.size())));
	}

	/**
	 * Whether a thread is virtual, without {@code Thread.isVirtual()} (JDK 21; the
	 * baseline is 17): the JDK's one class of virtual threads.
	 * @param thread the thread
	 * @return {@code true} for a virtual thread
	 */
	static boolean isVirtual(Thread thread) {
		return "java.lang.VirtualThread".equals(thread.getClass().getName());
	}

	/**
	 * A number of requests in words.
	 * @param count the number
	 * @return {@code 1 request}, {@code 3 requests}
	 */
	static String requests(int count) {
		return count + ((count == 1) ? " request" : " requests");
	}

	/**
	 * This group's finding.
	 * @param all every group, for what the holders of a pool wait on
	 * @param threshold the threshold
	 * @param poolState the JDBC pools' state now
	 * @return the finding
	 */
	Finding finding(List<WaitGroup> all, Duration threshold, PoolState poolState) {
		return finding(all, threshold, poolState, threshold, "");
	}

	/**
	 * This group's finding, with what the deadline did.
	 * @param all every group, for what the holders of a pool wait on
	 * @param threshold the threshold
	 * @param poolState the JDBC pools' state now
	 * @param deadline the deadline, when it is on
	 * @param freed what the deadline freed in this episode, in words, or empty
	 * @return the finding
	 */
	Finding finding(List<WaitGroup> all, Duration threshold, PoolState poolState, Duration deadline, String freed) {
		boolean one = this.count == 1;
		return this.waitingOn.kind()
			.finding()
			.raise(this.waitingOn.subject(), requests(this.count), DurationText.of(threshold), this.waitingOn.target(),
					details(all, poolState) + deadlineDetails(deadline, freed), one ? "is" : "are",
					one ? "waits" : "wait", this.onVirtualThreads ? VIRTUAL_THREAD_DUMP : PLATFORM_THREAD_DUMP);
	}

	private String deadlineDetails(Duration deadline, String freed) {
		StringBuilder details = new StringBuilder();
		if (this.interrupted > 0) {
			details.append("; the thread of ")
				.append((this.interrupted == 1) ? "1 of them was" : this.interrupted + " of them were")
				.append(" interrupted past ")
				.append(StuckRequestsProperties.INTERRUPT_AFTER_PROPERTY)
				.append(" (")
				.append(DurationText.of(deadline))
				.append("): its wait ends with the library's own failure");
		}
		if (this.cannotEnd > 0) {
			details.append("; ")
				.append((this.cannotEnd == 1) ? "1 of them is" : this.cannotEnd + " of them are")
				.append(" past ")
				.append(StuckRequestsProperties.INTERRUPT_AFTER_PROPERTY)
				.append(" (")
				.append(DurationText.of(deadline))
				.append(") in this wait, which an interrupt cannot end: ")
				.append(cannotEndAdvice(this.waitingOn));
		}
		if (!freed.isEmpty()) {
			details.append("; ").append(freed);
		}
		return details.toString();
	}

	/**
	 * What to do about a wait past the deadline that an interrupt cannot end.
	 * @param wait the wait
	 * @return the advice
	 */
	static String cannotEndAdvice(Wait wait) {
		return switch (wait.kind()) {
			case HTTP_RESPONSE -> "give that client a read timeout";
			case JDBC_READ -> "give the driver a socket timeout";
			case LOCK -> "wait for the lock with lockInterruptibly or tryLock, not lock() or synchronized";
			default -> "bound it as the fix says";
		};
	}

	private String details(List<WaitGroup> all, PoolState poolState) {
		StringBuilder details = new StringBuilder(", at ").append(this.waitingOn.site());
		// An asynchronous result's site is its endpoint already.
		if (!this.endpoints.isEmpty() && this.waitingOn.kind() != WaitKind.ASYNC_RESULT) {
			details.append(" (").append(String.join(", ", this.endpoints)).append(')');
		}
		if (this.waitingOn.kind() == WaitKind.LOCK
				&& this.waitingOn.target().endsWith(WaitClassifier.VIRTUAL_THREAD_HOLDER_UNKNOWN)) {
			details.append(VIRTUAL_THREAD_HOLDER_WHY);
		}
		if (this.waitingOn.kind() == WaitKind.POOL_CONNECTION && !poolState.text().isEmpty()) {
			details.append("; ").append(poolState.text());
		}
		if (this.waitingOn.kind() == WaitKind.POOL_CONNECTION) {
			List<String> others = new ArrayList<>();
			int holders = 0;
			for (WaitGroup other : all) {
				if (other.waitingOn().kind() != WaitKind.POOL_CONNECTION) {
					others.add(other.count() + " on " + other.waitingOn().subject());
					holders += other.count();
				}
			}
			// No public API says which thread holds a connection: the holders are
			// inferred, and said to be; "probably" only when they are enough to hold
			// every connection in use.
			int inUse = poolState.connectionsInUseWhereWaitedOn();
			if (!others.isEmpty() && inUse > 0 && holders >= inUse) {
				details
					.append("; its connections are probably held by the other requests past the threshold, "
							+ "which wait: ")
					.append(String.join(", ", others));
			}
			else if (!others.isEmpty()) {
				details
					.append("; the other requests past the threshold, which may hold some of its connections, wait: ")
					.append(String.join(", ", others));
			}
		}
		return details.toString();
	}

}
