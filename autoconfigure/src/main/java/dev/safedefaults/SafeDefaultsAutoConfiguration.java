package dev.safedefaults;

import java.util.List;

import dev.safedefaults.check.Check;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.check.FindingCatalogue;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.check.StartupCheckRunner;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;

/**
 * The root of safe-defaults: the master switch, the findings store that every feature
 * publishes into, and the runner of the startup checks. Features and reporters are
 * configured after it.
 */
@AutoConfiguration
@ConditionalOnSafeDefaultsEnabled
@EnableConfigurationProperties(SafeDefaultsProperties.class)
public final class SafeDefaultsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	FindingsStore safeDefaultsFindingsStore(SafeDefaultsProperties properties) {
		List<String> disabled = properties.getChecks().getDisabled();
		for (String id : disabled) {
			if (FindingCatalogue.find(id).isEmpty()) {
				throw new InvalidConfigurationPropertyValueException("safe-defaults.checks.disabled", id,
						"'" + id + "' is not a safe-defaults finding id. Allowed: "
								+ String.join(", ", FindingCatalogue.ids()) + " (see the README's findings catalogue)");
			}
		}
		return new FindingsStore(disabled);
	}

	@Bean
	@ConditionalOnBooleanProperty(name = SafeDefaultsProperties.CHECKS_ENABLED_PROPERTY, matchIfMissing = true)
	StartupCheckRunner safeDefaultsStartupCheckRunner(FindingsStore store, ObjectProvider<Check> checks,
			ObjectProvider<FeatureStatusReporter> features, SafeDefaultsProperties properties) {
		return new StartupCheckRunner(store, checks, features, properties.getChecks().getFailOn(),
				properties.getChecks().getDeferredTimeout());
	}

}
