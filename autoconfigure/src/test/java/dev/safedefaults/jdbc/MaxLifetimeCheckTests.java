package dev.safedefaults.jdbc;

import java.net.ConnectException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.Severity;
import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.jdbc.mysql.MySqlProtocolDefaultsAutoConfiguration;
import dev.safedefaults.jdbc.postgresql.PostgreSqlChecksAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rule of {@code jdbc.max-lifetime}, the same for every driver, with a stand-in for a
 * driver's part that reads the server's {@code wait_timeout} (the real reads are tested
 * in {@code MaxLifetimeOnEmbeddedMariaDbTests} and, on PostgreSQL,
 * {@code SessionTimeoutsOnPostgreSqlTests}). Hikari's defaults: maxLifetime 30 min,
 * keepaliveTime 2 min. Covers {@code DeferredPoolSessionCheck}, the base of every check
 * of a pool's session: deferred, named after its finding, and run on the application's
 * pool.
 */
class MaxLifetimeCheckTests {

	private static MaxLifetimeCheck maxLifetimeCheck(ListableBeanFactory beanFactory, TimeoutReader reader) {
		return new MaxLifetimeCheck(beanFactory, List.of(new StandInDriver(reader)));
	}

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, SafeDefaultsAutoConfiguration.class,
				JdbcDefaultsAutoConfiguration.class, MySqlProtocolDefaultsAutoConfiguration.class,
				PostgreSqlChecksAutoConfiguration.class))
		.withPropertyValues("spring.datasource.url=jdbc:mysql://127.0.0.1:1/app", "spring.datasource.name=orders",
				"safe-defaults.checks.enabled=false");

	private static List<Finding> run(AssertableApplicationContext context, long waitTimeoutSeconds) {
		return maxLifetimeCheck(context, (pool) -> waitTimeoutSeconds).run();
	}

	@Test
	void isDeferredBecauseItQueriesTheServerAndNamedAfterItsFinding() {
		this.runner.run((context) -> {
			MaxLifetimeCheck check = context.getBean(MaxLifetimeCheck.class);
			assertThat(check.deferred()).isTrue();
			assertThat(check.name()).isEqualTo(JdbcFindings.MAX_LIFETIME.id());
		});
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
	void neverAsksADriverAboutAPoolThatIsNotItsOwn() {
		AtomicInteger reads = new AtomicInteger();
		this.runner.withPropertyValues("spring.datasource.url=jdbc:h2:mem:lifetime").run((context) -> {
			assertThat(maxLifetimeCheck(context, (pool) -> reads.incrementAndGet()).run()).isEmpty();
			assertThat(reads).hasValue(0);
		});
	}

	/**
	 * Reads the {@code wait_timeout}, in seconds, of a session made like the pool's.
	 */
	@FunctionalInterface
	interface TimeoutReader {

		long seconds(HikariDataSource pool) throws Exception;

	}

	/**
	 * A MySQL-protocol driver's part with the read replaced: the pools of a
	 * {@code jdbc:mysql:} URL, the timeout shown in seconds, the check's own findings.
	 */
	private record StandInDriver(TimeoutReader reader) implements SessionIdleTimeout {

		@Override
		public boolean reads(HikariDataSource pool) {
			return pool.getJdbcUrl() != null && pool.getJdbcUrl().startsWith("jdbc:mysql:");
		}

		@Override
		public Duration read(HikariDataSource pool, PoolServerVariables serverVariables) throws Exception {
			return Duration.ofSeconds(this.reader.seconds(pool));
		}

		@Override
		public Object shown(Duration timeout) {
			return timeout.toSeconds();
		}

		@Override
		public Findings findings() {
			return new Findings(JdbcFindings.MAX_LIFETIME, JdbcFindings.MAX_LIFETIME_BELOW_HIKARIS_MINIMUM,
					JdbcFindings.MAX_LIFETIME_UNCHECKED);
		}

	}

}
