package dev.safedefaults.httpclient.feign;

import dev.safedefaults.check.FeatureStatus;
import dev.safedefaults.check.FeatureStatusReporter;

import org.springframework.beans.factory.ObjectProvider;

/**
 * Reports the {@code feign} feature: which clients use the converters built once, or why
 * none does. Loads no Feign class: without OpenFeign it says the library is absent.
 */
final class FeignFeatureStatus implements FeatureStatusReporter {

	static final String FEATURE = "feign";

	private final FeignProperties properties;

	private final ObjectProvider<FeignClientsStatus> clients;

	FeignFeatureStatus(FeignProperties properties, ObjectProvider<FeignClientsStatus> clients) {
		this.properties = properties;
		this.clients = clients;
	}

	@Override
	public FeatureStatus status() {
		FeignClientsStatus status = this.clients.getIfAvailable();
		if (status == null) {
			return FeatureStatus.off(FEATURE, "library absent: spring-cloud-openfeign-core (with "
					+ "spring-boot-http-converter, which it needs) is not on the class path");
		}
		return status.status(this.properties.isEnabled());
	}

}
