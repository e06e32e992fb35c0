package dev.safedefaults.httpclient.feign;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import dev.safedefaults.check.Check;
import dev.safedefaults.check.Finding;
import dev.safedefaults.httpclient.DefaultOnlyConverters;
import dev.safedefaults.httpclient.feign.FeignClientContexts.ClientContext;

import org.springframework.cloud.openfeign.support.FeignHttpMessageConverters;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.ResourceHttpMessageConverter;

/**
 * {@code feign.default-converters}: a Feign client whose converters include the defaults
 * (resources, XML, every format on the class path) because the starter's set is off or
 * overridden. {@code registerDefaults()} always adds a
 * {@link ResourceHttpMessageConverter}, which the starter's set never contains unless the
 * application adds one: that is the mark looked for. Built once, the defaults cost memory
 * and startup; rebuilt per call they are incident 1, which
 * {@code feign.per-call-converters} reports.
 * <p>
 * What is looked at is each client's converters bean, the one OpenFeign's encoder and
 * decoder get on every call, through its public {@code getConverters()}: OpenFeign's own
 * bean builds its list there once (running the context's converter customizers, as the
 * client's first call would) and keeps it.
 */
final class DefaultConvertersCheck implements Check {

	private final FeignClientContexts contexts;

	DefaultConvertersCheck(FeignClientContexts contexts) {
		this.contexts = contexts;
	}

	@Override
	public List<Finding> run() {
		List<Finding> findings = new ArrayList<>();
		for (ClientContext client : this.contexts.all()) {
			FeignHttpMessageConverters converters = client.converters();
			if (converters == null) {
				continue;
			}
			List<HttpMessageConverter<?>> list = converters.getConverters();
			if (!hasDefaults(list)) {
				continue;
			}
			Set<String> defaults = new TreeSet<>();
			list.stream()
				.filter(DefaultOnlyConverters::isDefaultOnly)
				.map((converter) -> converter.getClass().getSimpleName())
				.forEach(defaults::add);
			findings.add(FeignFindings.DEFAULT_CONVERTERS.raise(PerCallConvertersCheck.subject(client.client()),
					String.join(", ", defaults), reason(converters)));
		}
		return findings;
	}

	private static String reason(FeignHttpMessageConverters converters) {
		if (!(converters instanceof FrozenFeignHttpMessageConverters frozen)) {
			return "the starter's shared set is off or overridden for it";
		}
		return frozen.isUsual()
				? "the starter's shared set was incomplete (httpclient.shared-converters-incomplete), so it got its "
						+ "usual converters, built once"
				: "the application's converters bring them into the starter's set";
	}

	private static boolean hasDefaults(List<HttpMessageConverter<?>> converters) {
		return converters.stream().anyMatch(ResourceHttpMessageConverter.class::isInstance);
	}

}
