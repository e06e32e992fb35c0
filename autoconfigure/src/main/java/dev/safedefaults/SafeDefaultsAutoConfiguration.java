package dev.safedefaults;

import dev.safedefaults.check.Check;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.check.StartupCheckRunner;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * The root of safe-defaults: the master switch, the findings store that every feature
 * publishes into, the read timeout decided for Boot's clients that features follow, and
 * the runner of the startup checks. Features and reporters are configured after it.
 */
@AutoConfiguration
@ConditionalOnSafeDefaultsEnabled
@EnableConfigurationProperties(SafeDefaultsProperties.class)
public final class SafeDefaultsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	FindingsStore safeDefaultsFindingsStore(SafeDefaultsProperties properties) {
		return new FindingsStore(properties.getChecks().getDisabled());
	}

	@Bean
	@ConditionalOnMissingBean
	ClientReadTimeout safeDefaultsClientReadTimeout() {
		return new ClientReadTimeout();
	}

	@Bean
	@ConditionalOnBooleanProperty(name = SafeDefaultsProperties.CHECKS_ENABLED_PROPERTY, matchIfMissing = true)
	StartupCheckRunner safeDefaultsStartupCheckRunner(FindingsStore store, ObjectProvider<Check> checks,
			ObjectProvider<FeatureStatusReporter> features, SafeDefaultsProperties properties) {
		return new StartupCheckRunner(store, checks, features, properties.getChecks().getFailOn(),
				properties.getChecks().getDeferredTimeout(), StarterThreads::newThread);
	}

}
