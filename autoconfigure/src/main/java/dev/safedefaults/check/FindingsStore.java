package dev.safedefaults.check;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The current findings, one list per source. A source (a check, a runtime detector) owns
 * its findings and replaces them whenever it runs again, so the store always holds the
 * current state. Every finding is masked on the way in and silenced ids
 * ({@code safe-defaults.checks.disabled}) never enter. Reporters only read it.
 * <p>
 * Publication is atomic per source and ordered by generation: a result carries the
 * generation taken when its computation started ({@link #nextGeneration()}, or
 * {@link #update} which takes it for the caller), and a result older than the one
 * published never replaces it. Two runs of one check that overlap (the Log4j check on two
 * reconfigurations in quick succession) thus leave the newer result, whichever finishes
 * last.
 */
public final class FindingsStore {

	private static final Comparator<Finding> ORDER = Comparator.comparing(Finding::severity)
		.reversed()
		.thenComparing(Finding::id)
		.thenComparing(Finding::subject);

	private final Set<String> silencedIds;

	private final ConcurrentMap<String, Published> bySource = new ConcurrentHashMap<>();

	private final AtomicLong generations = new AtomicLong();

	/**
	 * Creates a store.
	 * @param silencedIds the finding ids that must never be reported
	 */
	public FindingsStore(Collection<String> silencedIds) {
		this.silencedIds = Set.copyOf(silencedIds);
	}

	/**
	 * Takes the generation of a computation about to start: later calls return larger
	 * numbers.
	 * @return the generation
	 */
	public long nextGeneration() {
		return this.generations.incrementAndGet();
	}

	/**
	 * Computes a source's findings and publishes them with the generation taken before
	 * the computation started, so an overlapping older run cannot overwrite them.
	 * @param source the source, for example a check's name
	 * @param computation what computes its current findings
	 * @return the findings kept (masked, without silenced ids); empty when a newer result
	 * was published meanwhile
	 */
	public List<Finding> update(String source, Supplier<? extends Collection<Finding>> computation) {
		long generation = nextGeneration();
		return publish(source, generation, computation.get());
	}

	/**
	 * Replaces the findings of one source with a result computed now.
	 * @param source the source, for example a check's name
	 * @param findings its current findings; empty clears them
	 * @return the findings kept (masked, without silenced ids)
	 * @throws IllegalArgumentException if a finding's id is not in the
	 * {@link FindingCatalogue}, or its severity is not the declared one
	 */
	public List<Finding> publish(String source, Collection<Finding> findings) {
		return publish(source, nextGeneration(), findings);
	}

	/**
	 * Replaces the findings of one source unless a newer result is already published.
	 * @param source the source, for example a check's name
	 * @param generation the generation taken when the computation started
	 * @param findings its findings; empty clears them
	 * @return the findings kept (masked, without silenced ids); empty when the result was
	 * older than the one published
	 * @throws IllegalArgumentException if a finding's id is not in the
	 * {@link FindingCatalogue}, or its severity is not the declared one
	 */
	public List<Finding> publish(String source, long generation, Collection<Finding> findings) {
		for (Finding finding : findings) {
			FindingType declared = FindingCatalogue.find(finding.id())
				.orElseThrow(() -> new IllegalArgumentException("Finding id '" + finding.id() + "' from " + source
						+ " is not declared: declare it in its feature's FindingDeclarations, listed in "
						+ "META-INF/spring.factories"));
			if (declared.severity() != finding.severity()) {
				throw new IllegalArgumentException("Finding '" + finding.id() + "' from " + source + " is raised as "
						+ finding.severity() + " but declared " + declared.severity());
			}
		}
		List<Finding> kept = findings.stream().filter((f) -> !isSilenced(f.id())).map(Finding::masked).toList();
		Published offered = new Published(generation, kept);
		Published now = this.bySource.merge(source, offered,
				(current, candidate) -> (candidate.generation() > current.generation()) ? candidate : current);
		return (now == offered) ? kept : List.of();
	}

	/**
	 * Removes the findings of one source, for example when a storm has ended.
	 * @param source the source
	 */
	public void clear(String source) {
		publish(source, List.of());
	}

	/**
	 * Returns all current findings, warnings first.
	 * @return the findings
	 */
	public List<Finding> findings() {
		return this.bySource.values()
			.stream()
			.flatMap((published) -> published.findings().stream())
			.sorted(ORDER)
			.toList();
	}

	/**
	 * Counts the current findings of one severity.
	 * @param severity the severity
	 * @return the count
	 */
	public long count(Severity severity) {
		return this.bySource.values()
			.stream()
			.flatMap((published) -> published.findings().stream())
			.filter((f) -> f.severity() == severity)
			.count();
	}

	/**
	 * Whether an id has been silenced with {@code safe-defaults.checks.disabled}.
	 * @param id the finding id
	 * @return {@code true} when findings with that id are dropped
	 */
	public boolean isSilenced(String id) {
		return this.silencedIds.contains(id);
	}

	/**
	 * What one source published last, with the generation of its computation.
	 */
	private record Published(long generation, List<Finding> findings) {
	}

}
