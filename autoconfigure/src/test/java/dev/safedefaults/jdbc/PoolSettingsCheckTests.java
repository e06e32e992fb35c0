package dev.safedefaults.jdbc;

import java.util.List;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.jdbc.mysql.MySqlProtocolDefaultsAutoConfiguration;
import dev.safedefaults.jdbc.postgresql.PostgreSqlChecksAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the pool settings check finds on any Hikari pool, whichever its driver: Hikari's
 * own trap, an infinite connection timeout. Each driver's traps are its sub-package's
 * ({@code MySqlProtocolSettingsCheckTests}); an H2 pool has none, so only Hikari's is
 * checked here. Covers {@code DriverSettingsCheck}, each driver's part as the check lists
 * it from {@code spring.factories}: none says anything about a pool of another driver.
 */
class PoolSettingsCheckTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, SafeDefaultsAutoConfiguration.class,
				JdbcDefaultsAutoConfiguration.class, MySqlProtocolDefaultsAutoConfiguration.class,
				PostgreSqlChecksAutoConfiguration.class))
		.withPropertyValues("spring.datasource.url=jdbc:h2:mem:timeout", "spring.datasource.name=orders");

	@Test
	void anInfiniteConnectionTimeoutIsReportedOnAnyHikariPoolNamingThePool() {
		this.runner.withPropertyValues("spring.datasource.hikari.connection-timeout=0")
			.run((context) -> assertThat(findings(context)).singleElement().satisfies((finding) -> {
				assertThat(finding.id()).isEqualTo("jdbc.infinite-connection-timeout");
				assertThat(finding.subject()).isEqualTo("orders");
			}));
	}

	@Test
	void hikarisDefaultConnectionTimeoutRaisesNothing() {
		this.runner.run((context) -> assertThat(findings(context)).isEmpty());
	}

	@Test
	void aConnectionTimeoutOfAFewSecondsRaisesNothing() {
		this.runner.withPropertyValues("spring.datasource.hikari.connection-timeout=2000")
			.run((context) -> assertThat(findings(context)).isEmpty());
	}

	private static List<Finding> findings(ApplicationContext context) {
		return context.getBean(FindingsStore.class).findings();
	}

}
