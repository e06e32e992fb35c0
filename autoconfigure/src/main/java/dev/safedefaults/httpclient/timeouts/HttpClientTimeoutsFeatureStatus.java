package dev.safedefaults.httpclient.timeouts;

import java.util.ArrayList;
import java.util.List;

import dev.safedefaults.check.FeatureStatus;
import dev.safedefaults.check.FeatureStatusReporter;

import org.springframework.beans.factory.ObjectProvider;

/**
 * Reports the {@code http-client-timeouts} feature: which of Boot's clients and groups
 * got the starter's timeouts, which kept their own, and what runs after the settings and
 * may set others. Loads no Boot HTTP client class: without
 * {@code spring-boot-http-client} it says the library is absent.
 */
final class HttpClientTimeoutsFeatureStatus implements FeatureStatusReporter {

	static final String FEATURE = "http-client-timeouts";

	private final boolean enabled;

	private final ObjectProvider<BootClientTimeouts> timeouts;

	HttpClientTimeoutsFeatureStatus(boolean enabled, ObjectProvider<BootClientTimeouts> timeouts) {
		this.enabled = enabled;
		this.timeouts = timeouts;
	}

	@Override
	public FeatureStatus status() {
		BootClientTimeouts clients = this.timeouts.getIfAvailable();
		if (clients == null) {
			return FeatureStatus.off(FEATURE,
					"library absent: spring-boot-http-client (Boot's RestClient, RestTemplate and WebClient support) "
							+ "is not on the class path");
		}
		if (!this.enabled) {
			return FeatureStatus.off(FEATURE, HttpClientTimeoutsDefaults.ENABLED_PROPERTY
					+ "=false: Boot's clients keep Boot's settings (no timeout unless the application sets one)");
		}
		List<String> appliedTo = new ArrayList<>();
		List<String> kept = new ArrayList<>();
		String scope = null;
		List<ClientTimeouts> all = clients.all();
		for (ClientTimeouts client : all) {
			String line = client.describe();
			if (client == all.get(0)) {
				for (String after : clients.runAfterSettings()) {
					line = line + "; " + after;
				}
			}
			if (client == webClients(all)) {
				for (String after : clients.runAfterConnectorSettings()) {
					line = line + "; " + after;
				}
			}
			if (client.anyDefault()) {
				appliedTo.add(line);
			}
			if (!client.allDefaults()) {
				kept.add(line);
			}
			if (scope == null && client.allDefaults()) {
				scope = client.connect().shown() + "/" + client.read().shown();
			}
		}
		String reason = kept.isEmpty() ? null : "kept their own: " + String.join("; ", kept);
		return new FeatureStatus(FEATURE, true, appliedTo, reason).withScope(scope);
	}

	/**
	 * The entry that WebClient's connector customizers follow: WebClient's own when it
	 * differs from the imperative clients, else the one entry of Boot's clients.
	 */
	private static ClientTimeouts webClients(List<ClientTimeouts> all) {
		return all.stream()
			.filter((client) -> BootClientTimeouts.WEB_CLIENTS.equals(client.subject()))
			.findFirst()
			.orElse(all.get(0));
	}

}
