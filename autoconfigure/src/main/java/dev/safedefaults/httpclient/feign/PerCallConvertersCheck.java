package dev.safedefaults.httpclient.feign;

import java.util.ArrayList;
import java.util.List;

import dev.safedefaults.check.Check;
import dev.safedefaults.check.Finding;
import dev.safedefaults.httpclient.feign.FeignClientContexts.ClientContext;

/**
 * {@code feign.per-call-converters} at startup: creates every client's context (as the
 * old inspection did, so that a client whose configuration is broken is known before its
 * first call) and reports one that cannot be created as {@code checks.failed}. Whether a
 * codec builds converters per call is only known once calls flow:
 * {@link FeignConverterBuilds} publishes that finding after startup, from what the
 * clients' codecs actually build. {@code SpringEncoder} and {@code SpringDecoder} ask
 * their provider for the converters on every encode and decode; a provider that builds
 * them there rebuilds every converter per call (incident 1: 6.4 instead of 160 requests a
 * second).
 */
final class PerCallConvertersCheck implements Check {

	private final FeignClientContexts contexts;

	PerCallConvertersCheck(FeignClientContexts contexts) {
		this.contexts = contexts;
	}

	@Override
	public List<Finding> run() {
		List<Finding> findings = new ArrayList<>();
		for (ClientContext client : this.contexts.all()) {
			Throwable failure = client.failure();
			if (failure != null) {
				findings.add(FeignFindings.CLIENT_NOT_INSPECTED.raise(subject(client.client()),
						failure.getClass().getName() + ": " + failure.getMessage()));
			}
		}
		return findings;
	}

	static String subject(String client) {
		return "feign client '" + client + "'";
	}

}
