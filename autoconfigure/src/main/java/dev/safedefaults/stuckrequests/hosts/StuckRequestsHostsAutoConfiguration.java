package dev.safedefaults.stuckrequests.hosts;

import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.stuckrequests.InFlightRequests;
import dev.safedefaults.stuckrequests.StuckRequestsAutoConfiguration;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.context.annotation.Bean;

/**
 * The stuck-request watch learning the hosts called: the context registers with the JVM's
 * one {@link HostsCalledSelector}, unless
 * {@code safe-defaults.stuck-requests.learn-hosts} is false. Applies where the watch runs
 * (its {@code InFlightRequests} bean).
 */
@AutoConfiguration(after = StuckRequestsAutoConfiguration.class)
@ConditionalOnSafeDefaultsEnabled
@ConditionalOnWebApplication(type = Type.SERVLET)
@ConditionalOnBooleanProperty(name = "safe-defaults.stuck-requests.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "safe-defaults.stuck-requests.learn-hosts", matchIfMissing = true)
@ConditionalOnBean(InFlightRequests.class)
public final class StuckRequestsHostsAutoConfiguration {

	/**
	 * A post-processor so that the context registers with the JVM's proxy selector before
	 * any client bean is built (the JDK HttpClient keeps the one it was built with).
	 */
	@Bean
	static DestinationRecorder safeDefaultsStuckRequestsDestinations() {
		return new DestinationRecorder();
	}

}
