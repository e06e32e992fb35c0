package dev.safedefaults.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.check.LibraryAbsentFeatureStatus;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The JDBC feature, what every driver shares (incident 5; issues 18, 23, 25 and 34): its
 * properties, the feature's status, the check of each pool's settings
 * ({@link PoolSettingsCheck}, with each driver's {@link DriverSettingsCheck}), the one
 * reading of each pool's session ({@link PoolServerVariables}) and the check of the
 * sessions' idle timeout against maxLifetime ({@link MaxLifetimeCheck}, with each
 * driver's {@link SessionIdleTimeout}). Each driver's own defaults and checks come from
 * its sub-package's auto-configuration, after this one: {@code jdbc.mysql}'s (the
 * defaults for MySQL-protocol pools, off with {@code safe-defaults.jdbc.enabled=false},
 * which leaves the checks on) and {@code jdbc.postgresql}'s. Excluding this one does not
 * exclude them.
 */
@AutoConfiguration(after = SafeDefaultsAutoConfiguration.class)
@ConditionalOnSafeDefaultsEnabled
@EnableConfigurationProperties(JdbcDefaultsProperties.class)
public final class JdbcDefaultsAutoConfiguration {

	/** Switches the defaults off, not the checks. */
	public static final String ENABLED_PROPERTY = "safe-defaults.jdbc.enabled";

	@Bean
	@ConditionalOnMissingClass("com.zaxxer.hikari.HikariDataSource")
	FeatureStatusReporter safeDefaultsJdbcFeatureStatus() {
		return new LibraryAbsentFeatureStatus(JdbcFeatureStatus.FEATURE, "HikariCP is not on the class path");
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(HikariDataSource.class)
	static class HikariPoolsConfiguration {

		@Bean
		JdbcFeatureStatus safeDefaultsJdbcFeatureStatus(JdbcDefaultsProperties properties,
				ObjectProvider<HikariDefaultsPostProcessor> postProcessor, ListableBeanFactory beanFactory) {
			return new JdbcFeatureStatus(properties, postProcessor, beanFactory);
		}

		@Bean
		PoolSettingsCheck safeDefaultsJdbcPoolSettingsCheck(ListableBeanFactory beanFactory) {
			return new PoolSettingsCheck(beanFactory);
		}

		@Bean
		PoolServerVariables safeDefaultsJdbcPoolServerVariables() {
			return new PoolServerVariables();
		}

		@Bean
		MaxLifetimeCheck safeDefaultsJdbcMaxLifetimeCheck(ListableBeanFactory beanFactory,
				PoolServerVariables serverVariables) {
			return new MaxLifetimeCheck(beanFactory, serverVariables);
		}

	}

}
