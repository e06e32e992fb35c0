package dev.safedefaults.check;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Every finding id safe-defaults can raise, whether or not the feature that raises it is
 * active in this application. Ids are public API: {@code safe-defaults.checks.disabled} is
 * validated against this list, and the README's findings catalogue documents each one.
 * A feature that adds a finding adds its entry here the same day.
 */
public final class FindingCatalogue {

	/**
	 * One documented finding id.
	 *
	 * @param id the stable dotted id
	 * @param severity the severity it is raised with
	 * @param meaning what it means
	 * @param fix how to fix it
	 */
	public record Entry(String id, Severity severity, String meaning, String fix) {
	}

	/** Id of the finding raised when a check itself fails or times out. */
	public static final String CHECKS_FAILED = "checks.failed";

	private static final Map<String, Entry> ENTRIES = index(List.of(
			new Entry(CHECKS_FAILED, Severity.WARNING,
					"A check threw an exception or did not finish in time; what it looks for was not checked.",
					"Report it with the exception named in the message; silence it with "
							+ "safe-defaults.checks.disabled=checks.failed."),
			new Entry("feign.per-call-converters", Severity.WARNING,
					"A Feign client's encoder or decoder gets a new converters object on every call (an ObjectFactory, "
							+ "ObjectProvider or Supplier that builds FeignHttpMessageConverters or HttpMessageConverters "
							+ "in getObject()): every call rebuilds every converter (incident 1: throughput fell 25×).",
					"Build the converters once: remove the custom Encoder/Decoder (safe-defaults gives every client one "
							+ "set built once) or return one instance built once from the provider."),
			new Entry("feign.default-converters", Severity.INFO,
					"A Feign client's converters include the defaults (resources, XML, every format on the class path) "
							+ "because the starter's shared set is off or overridden for it.",
					"Remove the converters bean or codec that brings them, or set safe-defaults.feign.enabled=true; add a "
							+ "converter the client needs as an HttpMessageConverter bean or an "
							+ "HttpMessageConverterCustomizer.")));

	private FindingCatalogue() {
	}

	private static Map<String, Entry> index(List<Entry> entries) {
		Map<String, Entry> byId = new LinkedHashMap<>();
		for (Entry entry : entries) {
			if (byId.put(entry.id(), entry) != null) {
				throw new IllegalStateException("Duplicate finding id " + entry.id());
			}
		}
		return byId;
	}

	/**
	 * Returns every documented entry, in catalogue order.
	 * @return the entries
	 */
	public static List<Entry> entries() {
		return List.copyOf(ENTRIES.values());
	}

	/**
	 * Returns every documented id.
	 * @return the ids
	 */
	public static Set<String> ids() {
		return ENTRIES.keySet();
	}

	/**
	 * Looks up an id.
	 * @param id the id
	 * @return its entry, or empty when the id is unknown
	 */
	public static Optional<Entry> find(String id) {
		return Optional.ofNullable(ENTRIES.get(id));
	}

}
