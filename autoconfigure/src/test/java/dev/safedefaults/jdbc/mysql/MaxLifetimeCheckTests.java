package dev.safedefaults.jdbc.mysql;

import java.net.ConnectException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.Severity;
import dev.safedefaults.jdbc.JdbcDefaultsAutoConfiguration;
import dev.safedefaults.jdbc.JdbcFindings;
import dev.safedefaults.jdbc.MaxLifetimeCheck;
import dev.safedefaults.jdbc.postgresql.PostgreSqlChecksAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rule of {@code jdbc.max-lifetime} with a stand-in for the server's
 * {@code wait_timeout} (the real read is tested in
 * {@link MaxLifetimeOnEmbeddedMariaDbTests}). Hikari's defaults: maxLifetime 30 min,
 * keepaliveTime 2 min.
 */
class MaxLifetimeCheckTests {

	private static MaxLifetimeCheck maxLifetimeCheck(ListableBeanFactory beanFactory,
			MySqlWaitTimeout.WaitTimeoutReader reader) {
		return new MaxLifetimeCheck(beanFactory, List.of(new MySqlWaitTimeout(reader)));
	}

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, SafeDefaultsAutoConfiguration.class,
				JdbcDefaultsAutoConfiguration.class, MySqlProtocolDefaultsAutoConfiguration.class,
				PostgreSqlChecksAutoConfiguration.class))
		.withPropertyValues("spring.datasource.url=" + JdbcDefaultsAutoConfigurationTests.MYSQL_URL,
				"spring.datasource.name=orders", "safe-defaults.checks.enabled=false");

	private static List<Finding> run(AssertableApplicationContext context, long waitTimeoutSeconds) {
		return maxLifetimeCheck(context, (pool) -> waitTimeoutSeconds).run();
	}

	@Test
	void isDeferredBecauseItQueriesTheServer() {
		this.runner.run((context) -> assertThat(context.getBean(MaxLifetimeCheck.class).deferred()).isTrue());
	}

	@Test
	void staysSilentWithTheServersDefaultTimeout() {
		// MySQL's and MariaDB's default: 8 hours.
		this.runner.run((context) -> assertThat(run(context, 28_800)).isEmpty());
	}

	@Test
	void staysSilentWhenHikarisDefaultKeepalivePingsIdleConnectionsInTime() {
		// 2 min keepalive <= 300 s - 30 s: idle connections are pinged before the server
		// gives up.
		this.runner.run((context) -> assertThat(run(context, 300)).isEmpty());
	}

	@Test
	void warnsWhenNeitherMaxLifetimeNorKeepaliveIsShortEnough() {
		this.runner.run((context) -> assertThat(run(context, 120)).singleElement().satisfies((finding) -> {
			assertThat(finding.id()).isEqualTo(JdbcFindings.MAX_LIFETIME.id());
			assertThat(finding.severity()).isEqualTo(Severity.WARNING);
			assertThat(finding.subject()).isEqualTo("orders");
			assertThat(finding.message()).contains("after 120 s idle", "maxLifetime=1800s", "keepaliveTime=120s");
			assertThat(finding.fix()).contains("spring.datasource.hikari.max-lifetime=90000 ",
					"spring.datasource.hikari.keepalive-time=90000 ");
		}));
	}

	@Test
	void staysSilentWhenMaxLifetimeIsAtLeastThirtySecondsShorter() {
		this.runner
			.withPropertyValues("spring.datasource.hikari.max-lifetime=90000",
					"spring.datasource.hikari.keepalive-time=0")
			.run((context) -> assertThat(run(context, 120)).isEmpty());
	}

	@Test
	void warnsWhenMaxLifetimeIsLessThanThirtySecondsShorterAndKeepaliveIsOff() {
		this.runner
			.withPropertyValues("spring.datasource.hikari.max-lifetime=100000",
					"spring.datasource.hikari.keepalive-time=0")
			.run((context) -> assertThat(run(context, 120)).singleElement()
				.satisfies((finding) -> assertThat(finding.message()).contains("maxLifetime=100s",
						"keepaliveTime=0 (off)")));
	}

	@Test
	void staysSilentWhenKeepaliveIsAtLeastThirtySecondsShorter() {
		this.runner.withPropertyValues("spring.datasource.hikari.keepalive-time=60000")
			.run((context) -> assertThat(run(context, 120)).isEmpty());
	}

	@Test
	void countsAKeepaliveHikariDisablesAsOff() {
		// Hikari switches off a keepalive below 30 s, and one not shorter than
		// maxLifetime.
		this.runner.withPropertyValues("spring.datasource.hikari.keepalive-time=20000")
			.run((context) -> assertThat(run(context, 120)).singleElement()
				.satisfies((finding) -> assertThat(finding.message()).contains("keepaliveTime=0 (off)")));
		this.runner
			.withPropertyValues("spring.datasource.hikari.keepalive-time=100000",
					"spring.datasource.hikari.max-lifetime=100000")
			.run((context) -> assertThat(run(context, 120)).singleElement()
				.satisfies((finding) -> assertThat(finding.message()).contains("keepaliveTime=0 (off)")));
	}

	@Test
	void anInfiniteMaxLifetimeNeverRetiresAConnection() {
		this.runner
			.withPropertyValues("spring.datasource.hikari.max-lifetime=0", "spring.datasource.hikari.keepalive-time=0")
			.run((context) -> assertThat(run(context, 28_800)).singleElement().satisfies((finding) -> {
				assertThat(finding.message()).contains("maxLifetime=0 (no limit)");
				assertThat(finding.fix()).contains("max-lifetime=1800000 ", "keepalive-time=120000 ");
			}));
	}

	@Test
	void saysThatIdleTimeoutRetiresOnlyTheConnectionsAboveMinimumIdle() {
		this.runner
			.withPropertyValues("spring.datasource.hikari.minimum-idle=2",
					"spring.datasource.hikari.idle-timeout=60000")
			.run((context) -> assertThat(run(context, 120)).singleElement()
				.satisfies((finding) -> assertThat(finding.message())
					.contains("idleTimeout=60s retires only the connections above minimumIdle=2")));
		// Hikari's default: minimumIdle = maximumPoolSize, the pool never shrinks.
		this.runner.withPropertyValues("spring.datasource.hikari.idle-timeout=60000")
			.run((context) -> assertThat(run(context, 120)).singleElement()
				.satisfies((finding) -> assertThat(finding.message()).doesNotContain("idleTimeout")));
	}

	@Test
	void aTimeoutTooShortForHikariAsksForALongerSessionTimeout() {
		this.runner.run((context) -> assertThat(run(context, 45)).singleElement()
			.satisfies((finding) -> assertThat(finding.fix()).contains("sessionVariables=wait_timeout")
				.doesNotContain("max-lifetime=")));
	}

	@Test
	void anUnreachableServerIsReportedAsInfo() {
		this.runner.run((context) -> assertThat(maxLifetimeCheck(context, (pool) -> {
			throw new ConnectException("Connection refused");
		}).run()).singleElement().satisfies((finding) -> {
			assertThat(finding.id()).isEqualTo(JdbcFindings.MAX_LIFETIME_UNCHECKED.id());
			assertThat(finding.severity()).isEqualTo(Severity.INFO);
			assertThat(finding.message()).contains("Could not read the sessions' wait_timeout", "ConnectException")
				.doesNotContain("Connection refused");
		}));
	}

	@Test
	void neverAsksAboutANonMySqlPool() {
		AtomicInteger reads = new AtomicInteger();
		this.runner.withPropertyValues("spring.datasource.url=jdbc:h2:mem:lifetime").run((context) -> {
			assertThat(maxLifetimeCheck(context, (pool) -> reads.incrementAndGet()).run()).isEmpty();
			assertThat(reads).hasValue(0);
		});
	}

}
