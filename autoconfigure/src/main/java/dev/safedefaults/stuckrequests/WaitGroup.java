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
 */
record WaitGroup(Wait waitingOn, int count, Set<String> endpoints) {

	/** The most groups reported: the top waits. */
	static final int TOP_WAITS = 5;

	static final int MAX_ENDPOINTS = 3;

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
			Set<String> endpoints = new TreeSet<>();
			waiting.stream()
				.map(InFlightRequest::endpoint)
				.filter((endpoint) -> !endpoint.isEmpty())
				.limit(MAX_ENDPOINTS)
				.forEach(endpoints::add);
			groups.add(new WaitGroup(wait, waiting.size(), endpoints));
		});
		groups.sort(Comparator.comparingInt(WaitGroup::count)
			.reversed()
			.thenComparing((group) -> group.waitingOn().kind())
			.thenComparing((group) -> group.waitingOn().target()));
		return List.copyOf(groups.subList(0, Math.min(TOP_WAITS, groups.size())));
	}

	/**
	 * This group's finding.
	 * @param all every group, for what the holders of a pool wait on
	 * @param threshold the threshold
	 * @param poolState the JDBC pools' state now
	 * @return the finding
	 */
	Finding finding(List<WaitGroup> all, Duration threshold, PoolState poolState) {
		WaitKind kind = this.waitingOn.kind();
		String subject = kind.label() + ": " + this.waitingOn.target();
		String requests = this.count + ((this.count == 1) ? " request" : " requests");
		return kind.finding()
			.raise(subject, requests, DurationText.of(threshold), this.waitingOn.target(), details(all, poolState));
	}

	private String details(List<WaitGroup> all, PoolState poolState) {
		StringBuilder details = new StringBuilder(", at ").append(this.waitingOn.site());
		if (!this.endpoints.isEmpty()) {
			details.append(" (").append(String.join(", ", this.endpoints)).append(')');
		}
		if (this.waitingOn.kind() == WaitKind.POOL_CONNECTION && !poolState.text().isEmpty()) {
			details.append("; ").append(poolState.text());
		}
		if (this.waitingOn.kind() == WaitKind.POOL_CONNECTION) {
			List<String> others = new ArrayList<>();
			int holders = 0;
			for (WaitGroup other : all) {
				if (other.waitingOn().kind() != WaitKind.POOL_CONNECTION) {
					others.add(other.count() + " on " + other.waitingOn().kind().label() + ": "
							+ other.waitingOn().target());
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
