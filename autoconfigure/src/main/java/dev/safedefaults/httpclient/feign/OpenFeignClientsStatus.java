package dev.safedefaults.httpclient.feign;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import dev.safedefaults.check.FeatureStatus;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.cloud.openfeign.FeignClientFactory;
import org.springframework.cloud.openfeign.support.FeignHttpMessageConverters;

/**
 * Looks at the client contexts that exist (it never creates one) and says which use the
 * converters built once: the shared instance, or one of their own.
 */
final class OpenFeignClientsStatus implements FeignClientsStatus {

	private final ListableBeanFactory beanFactory;

	private final ObjectProvider<FeignClientFactory> clientFactory;

	private final ObjectProvider<SharedFeignConverters> shared;

	OpenFeignClientsStatus(ListableBeanFactory beanFactory, ObjectProvider<FeignClientFactory> clientFactory,
			ObjectProvider<SharedFeignConverters> shared) {
		this.beanFactory = beanFactory;
		this.clientFactory = clientFactory;
		this.shared = shared;
	}

	@Override
	public FeatureStatus status(boolean enabled) {
		if (!enabled) {
			return FeatureStatus.off(FeignFeatureStatus.FEATURE,
					"safe-defaults.feign.enabled=false: every client builds OpenFeign's default converters");
		}
		if (this.shared.getIfAvailable() == null) {
			return FeatureStatus.off(FeignFeatureStatus.FEATURE,
					"the application defines its own FeignHttpMessageConverters bean, which every client uses");
		}
		FeignClientFactory factory = this.clientFactory.getIfAvailable();
		Set<String> created = (factory != null) ? factory.getContextNames() : Set.of();
		List<String> appliedTo = new ArrayList<>();
		List<String> notApplied = new ArrayList<>();
		List<String> pending = new ArrayList<>();
		for (String client : FeignClientContexts.clientNames(this.beanFactory)) {
			if (factory == null || !created.contains(client)) {
				pending.add(client);
				continue;
			}
			FeignHttpMessageConverters converters = factory.getInstance(client, FeignHttpMessageConverters.class);
			if (converters instanceof FrozenFeignHttpMessageConverters frozen) {
				appliedTo.add(client + (frozen.isUsual()
						? " (its usual converters, built once: the shared set was "
								+ "incomplete, see httpclient.shared-converters-incomplete)"
						: frozen.isShared() ? " (shared converters)"
								: " (its own converters, built once with its customizers)"));
			}
			else {
				notApplied.add(client);
			}
		}
		List<String> notes = new ArrayList<>();
		if (!notApplied.isEmpty()) {
			notes.add("own converters bean wins for " + String.join(", ", notApplied));
		}
		if (!pending.isEmpty()) {
			notes.add("context not created yet for " + String.join(", ", pending));
		}
		return new FeatureStatus(FeignFeatureStatus.FEATURE, true, appliedTo,
				notes.isEmpty() ? null : String.join("; ", notes))
			.withScope(appliedTo.size() + ((appliedTo.size() == 1) ? " client" : " clients"));
	}

}
