package dev.safedefaults.httpclient.feign;

import dev.safedefaults.check.FeatureStatus;

/**
 * What the Feign feature did to each client. Its signature names no Feign type, so that
 * {@link FeignFeatureStatus} loads without OpenFeign; the implementation exists only when
 * OpenFeign is on the class path.
 */
@FunctionalInterface
interface FeignClientsStatus {

	/**
	 * Reports the feature's status with OpenFeign present.
	 * @param enabled whether {@code safe-defaults.feign.enabled} is true
	 * @return the status
	 */
	FeatureStatus status(boolean enabled);

}
