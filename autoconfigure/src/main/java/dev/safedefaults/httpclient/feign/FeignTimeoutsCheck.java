package dev.safedefaults.httpclient.feign;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.safedefaults.check.Check;
import dev.safedefaults.check.Finding;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.cloud.openfeign.FeignClientProperties;
import org.springframework.cloud.openfeign.FeignClientProperties.FeignClientConfiguration;

/**
 * Finds an OpenFeign client configuration
 * ({@code spring.cloud.openfeign.client.config.<name>.*}, {@code default} included) whose
 * connect or read timeout is 0 or negative: OpenFeign's clients then wait for ever.
 * OpenFeign's own defaults (10 s, 60 s) apply where nothing is set, so an unset timeout
 * is no finding; the starter changes no Feign timeout.
 */
final class FeignTimeoutsCheck implements Check {

	private static final String PREFIX = "spring.cloud.openfeign.client.config.";

	private final ObjectProvider<FeignClientProperties> properties;

	FeignTimeoutsCheck(ObjectProvider<FeignClientProperties> properties) {
		this.properties = properties;
	}

	@Override
	public List<Finding> run() {
		FeignClientProperties feign = this.properties.getIfAvailable();
		List<Finding> findings = new ArrayList<>();
		if (feign == null) {
			return findings;
		}
		for (Map.Entry<String, FeignClientConfiguration> client : new TreeMap<>(feign.getConfig()).entrySet()) {
			String name = client.getKey();
			check(findings, name, "connect", client.getValue().getConnectTimeout());
			check(findings, name, "read", client.getValue().getReadTimeout());
		}
		return findings;
	}

	private static void check(List<Finding> findings, String name, String kind, @Nullable Integer millis) {
		if (millis != null && millis <= 0) {
			findings.add(FeignFindings.NO_TIMEOUT.raise("Feign client '" + name + "'", kind, millis,
					PREFIX + name + "." + kind + "-timeout"));
		}
	}

}
