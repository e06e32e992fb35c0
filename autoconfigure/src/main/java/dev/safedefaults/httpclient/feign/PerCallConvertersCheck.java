package dev.safedefaults.httpclient.feign;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.safedefaults.check.Check;
import dev.safedefaults.check.Finding;
import dev.safedefaults.httpclient.feign.FeignCodecInspector.ClientCodecs;
import dev.safedefaults.httpclient.feign.FeignCodecInspector.ConvertersSource;

/**
 * {@code feign.per-call-converters}: a Feign client whose encoder or decoder gets a new
 * converters object on every call. {@code SpringEncoder} and {@code SpringDecoder} ask
 * their provider for the converters on every encode and decode; a provider that builds
 * them there rebuilds every converter per call (incident 1: 6.4 instead of 160 requests a
 * second). A client whose context cannot be created to look is reported as
 * {@code checks.failed}.
 */
final class PerCallConvertersCheck implements Check {

	private final FeignCodecInspector inspector;

	PerCallConvertersCheck(FeignCodecInspector inspector) {
		this.inspector = inspector;
	}

	@Override
	public List<Finding> run() {
		List<Finding> findings = new ArrayList<>();
		for (ClientCodecs client : this.inspector.inspectAll()) {
			if (client.failure() != null) {
				findings.add(FeignFindings.CLIENT_NOT_INSPECTED.raise(subject(client.client()),
						client.failure().getClass().getName() + ": " + client.failure().getMessage()));
				continue;
			}
			Set<String> perCall = new LinkedHashSet<>();
			for (ConvertersSource source : client.sources()) {
				if (source.newPerCall()) {
					perCall.add(source.codec() + " " + source.path());
				}
			}
			if (!perCall.isEmpty()) {
				findings.add(FeignFindings.PER_CALL_CONVERTERS.raise(subject(client.client()),
						String.join(" and its ", perCall)));
			}
		}
		return findings;
	}

	static String subject(String client) {
		return "feign client '" + client + "'";
	}

}
