package dev.safedefaults.feign;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.safedefaults.check.Check;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingCatalogue;
import dev.safedefaults.feign.FeignCodecInspector.ClientCodecs;
import dev.safedefaults.feign.FeignCodecInspector.ConvertersSource;

/**
 * {@code feign.per-call-converters}: a Feign client whose encoder or decoder gets a new
 * converters object on every call. {@code SpringEncoder} and {@code SpringDecoder} ask
 * their provider for the converters on every encode and decode; a provider that builds
 * them there rebuilds every converter per call (incident 1: 6.4 instead of 160 requests a
 * second). A client whose context cannot be created to look is reported as
 * {@code checks.failed}.
 */
final class PerCallConvertersCheck implements Check {

	static final String ID = "feign.per-call-converters";

	private final FeignCodecInspector inspector;

	PerCallConvertersCheck(FeignCodecInspector inspector) {
		this.inspector = inspector;
	}

	@Override
	public List<Finding> run() {
		List<Finding> findings = new ArrayList<>();
		for (ClientCodecs client : this.inspector.inspectAll()) {
			if (client.failure() != null) {
				findings.add(Finding.warning(FindingCatalogue.CHECKS_FAILED, subject(client.client()),
						"Its codecs could not be inspected for per-call converters: its context failed with "
								+ client.failure().getClass().getName() + ": " + client.failure().getMessage(),
						"Fix the client's configuration; the client itself will fail the same way on its first call."));
				continue;
			}
			Set<String> perCall = new LinkedHashSet<>();
			for (ConvertersSource source : client.sources()) {
				if (source.newPerCall()) {
					perCall.add(source.codec() + " " + source.path());
				}
			}
			if (!perCall.isEmpty()) {
				findings.add(Finding.warning(ID, subject(client.client()),
						"Its " + String.join(" and its ", perCall) + " yields a new converters object on every call: "
								+ "each call rebuilds every converter (incident 1: throughput fell 25×).",
						"Build the converters once: remove the custom Encoder/Decoder (safe-defaults gives every "
								+ "client one set built once), or inject ObjectProvider<FeignHttpMessageConverters> "
								+ "instead of building one in getObject()."));
			}
		}
		return findings;
	}

	static String subject(String client) {
		return "feign client '" + client + "'";
	}

}
