package dev.safedefaults.check;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The current findings, one list per source. A source (a check, a runtime detector) owns
 * its findings and replaces them whenever it runs again, so the store always holds the
 * current state. Every finding is masked on the way in and silenced ids
 * ({@code safe-defaults.checks.disabled}) never enter. Reporters only read it.
 */
public final class FindingsStore {

	private static final Comparator<Finding> ORDER = Comparator.comparing(Finding::severity)
		.reversed()
		.thenComparing(Finding::id)
		.thenComparing(Finding::subject);

	private final Set<String> silencedIds;

	private final ConcurrentMap<String, List<Finding>> bySource = new ConcurrentHashMap<>();

	/**
	 * Creates a store.
	 * @param silencedIds the finding ids that must never be reported
	 */
	public FindingsStore(Collection<String> silencedIds) {
		this.silencedIds = Set.copyOf(silencedIds);
	}

	/**
	 * Replaces the findings of one source.
	 * @param source the source, for example a check's name
	 * @param findings its current findings; empty clears them
	 * @return the findings kept (masked, without silenced ids)
	 * @throws IllegalArgumentException if a finding's id is not in the {@link FindingCatalogue}
	 */
	public List<Finding> publish(String source, Collection<Finding> findings) {
		for (Finding finding : findings) {
			if (FindingCatalogue.find(finding.id()).isEmpty()) {
				throw new IllegalArgumentException("Finding id '" + finding.id() + "' from " + source
						+ " is not in the FindingCatalogue; every id must be documented there");
			}
		}
		List<Finding> kept = findings.stream().filter((f) -> !isSilenced(f.id())).map(Finding::masked).toList();
		if (kept.isEmpty()) {
			this.bySource.remove(source);
		}
		else {
			this.bySource.put(source, kept);
		}
		return kept;
	}

	/**
	 * Removes the findings of one source, for example when a storm has ended.
	 * @param source the source
	 */
	public void clear(String source) {
		this.bySource.remove(source);
	}

	/**
	 * Returns all current findings, warnings first.
	 * @return the findings
	 */
	public List<Finding> findings() {
		return this.bySource.values().stream().flatMap(List::stream).sorted(ORDER).toList();
	}

	/**
	 * Counts the current findings of one severity.
	 * @param severity the severity
	 * @return the count
	 */
	public long count(Severity severity) {
		return this.bySource.values().stream().flatMap(List::stream).filter((f) -> f.severity() == severity).count();
	}

	/**
	 * Whether an id has been silenced with {@code safe-defaults.checks.disabled}.
	 * @param id the finding id
	 * @return {@code true} when findings with that id are dropped
	 */
	public boolean isSilenced(String id) {
		return this.silencedIds.contains(id);
	}

}
