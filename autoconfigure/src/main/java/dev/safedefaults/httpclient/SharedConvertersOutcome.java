package dev.safedefaults.httpclient;

import java.util.List;

import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.SpringVersion;

/**
 * What became of the shared converters set once built: complete, or what it lacked. When
 * it lacked something, the {@code httpclient.shared-converters-incomplete} warning is
 * logged at once and published. The client features read it for their status lines
 * without building the set.
 */
public final class SharedConvertersOutcome {

	static final String SOURCE = "httpclient.shared-converters";

	private static final Log logger = LogFactory.getLog(SharedConvertersOutcome.class);

	private final ObjectProvider<FindingsStore> store;

	private volatile List<String> missing = List.of();

	SharedConvertersOutcome(ObjectProvider<FindingsStore> store) {
		this.store = store;
	}

	/**
	 * Records the set just built.
	 * @param set the set
	 * @return the set
	 */
	SharedClientConverters built(SharedClientConverters set) {
		this.missing = set.missing();
		if (set.isComplete()) {
			return set;
		}
		String framework = String.valueOf(SpringVersion.getVersion());
		Finding finding = HttpClientFindings.SHARED_CONVERTERS_INCOMPLETE.raise("shared converters set",
				String.join(", ", set.missing()), framework);
		logger.warn("safe-defaults: " + finding.id() + ": " + finding.message() + " Fix: " + finding.fix());
		FindingsStore findings = this.store.getIfAvailable();
		if (findings != null) {
			findings.publish(SOURCE, List.of(finding));
		}
		return set;
	}

	/**
	 * What the set lacked, empty while it is complete or not built yet.
	 * @return a description of each thing missing
	 */
	public List<String> missing() {
		return this.missing;
	}

}
