package dev.safedefaults.httpclient.timeouts;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.safedefaults.check.Check;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingType;
import dev.safedefaults.httpclient.timeouts.ClientTimeouts.Source;
import dev.safedefaults.httpclient.timeouts.ClientTimeouts.Timeout;

/**
 * Finds a client Boot builds, or an HTTP service group, left without a connect or read
 * timeout: not set, set to 0 or a negative value, or above an hour. One finding per
 * setting, naming the property that sets it: a group that inherits the global value is
 * covered by the global finding.
 */
final class ClientTimeoutsCheck implements Check {

	private final BootClientTimeouts timeouts;

	private final boolean defaultsOn;

	ClientTimeoutsCheck(BootClientTimeouts timeouts, boolean defaultsOn) {
		this.timeouts = timeouts;
		this.defaultsOn = defaultsOn;
	}

	@Override
	public List<Finding> run() {
		List<Finding> findings = new ArrayList<>();
		Set<Timeout> reported = new HashSet<>();
		for (ClientTimeouts client : this.timeouts.all()) {
			for (Timeout timeout : List.of(client.connect(), client.read())) {
				// A group that takes the global value is reported once, with it.
				if (timeout.none() && reported.add(timeout)) {
					findings.add(type(timeout).raise(client.subject(), timeout.describe(), timeout.property(),
							timeout.effect()));
				}
			}
		}
		return findings;
	}

	private FindingType type(Timeout timeout) {
		if (timeout.source() == Source.SETTINGS_BEAN) {
			return HttpClientTimeoutsFindings.NO_TIMEOUT_IN_SETTINGS_BEAN;
		}
		if (timeout.source() == Source.NONE && !this.defaultsOn) {
			return HttpClientTimeoutsFindings.NO_TIMEOUT_DEFAULT_OFF;
		}
		return HttpClientTimeoutsFindings.NO_TIMEOUT;
	}

}
