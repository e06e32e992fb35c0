package dev.safedefaults.stuckrequests.hikari;

import java.sql.Connection;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.stuckrequests.JdbcPools;
import dev.safedefaults.stuckrequests.JdbcPools.PoolState;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The watch's Hikari route: {@code HikariJdbcPools}, the {@link JdbcPools} the watch
 * asks, read through Hikari's pool bean: a pool with every connection taken and a thread
 * waiting is the one waited on, with its state; without Hikari, no such bean (the watch
 * then names "the connection pool").
 */
class StuckRequestsHikariAutoConfigurationTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(SafeDefaultsAutoConfiguration.class, StuckRequestsHikariAutoConfiguration.class))
		.withPropertyValues("safe-defaults.checks.enabled=false");

	@Test
	void aPoolWithEveryConnectionTakenAndAThreadWaitingIsTheOneWaitedOnWithItsState() throws Exception {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl("jdbc:h2:mem:stuck-requests-hikari");
		config.setPoolName("StuckRequestsPool");
		config.setMaximumPoolSize(1);
		config.setConnectionTimeout(Duration.ofMinutes(2).toMillis());
		try (HikariDataSource pool = new HikariDataSource(config); Connection taken = pool.getConnection()) {
			Thread waiter = new Thread(() -> {
				try (Connection connection = pool.getConnection()) {
					// Interrupted at the end of the test.
				}
				catch (Exception ex) {
					// Interrupted: the wait ends, as it should.
				}
			}, "pool-waiter");
			waiter.setDaemon(true);
			waiter.start();
			this.runner.withBean("dataSource", HikariDataSource.class, () -> pool).run((context) -> {
				JdbcPools pools = context.getBean(JdbcPools.class);
				await("a thread waits").atMost(Duration.ofSeconds(20))
					.until(() -> pools.waitedOn().equals("StuckRequestsPool"));
				assertThat(pools.inUse()).isEqualTo("StuckRequestsPool");
				assertThat(pools.state()).isEqualTo(
						new PoolState("StuckRequestsPool: 1 of 1 connections in use, 1 thread waiting for one", 1));
			});
			assertThat(taken.isValid(1)).isTrue();
			waiter.interrupt();
			waiter.join(TimeUnit.SECONDS.toMillis(10));
			assertThat(waiter.isAlive()).isFalse();
		}
	}

	@Test
	void withoutHikariThereIsNoPoolsBean() {
		this.runner.withClassLoader(new FilteredClassLoader(HikariDataSource.class))
			.run((context) -> assertThat(context).doesNotHaveBean(JdbcPools.class));
	}

}
