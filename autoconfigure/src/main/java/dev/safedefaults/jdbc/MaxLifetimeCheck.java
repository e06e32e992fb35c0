package dev.safedefaults.jdbc;

import java.time.Duration;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingType;
import dev.safedefaults.check.SecretMasker;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ListableBeanFactory;

/**
 * Compares how long a MySQL-protocol pool (or, issue 23, a PostgreSQL pool, against its
 * sessions' {@code idle_session_timeout}) lets a connection sit idle with the
 * {@code wait_timeout} its sessions really have: past it the server (or a proxy in front
 * of it) closes the connection, and the next borrow meets Hikari's "Failed to validate
 * connection … Possibly consider using a shorter maxLifetime value", a retry and a new
 * connection. An idle connection is safe when Hikari retires it first
 * ({@code maxLifetime} at least 30 s shorter than {@code wait_timeout}) or pings it first
 * ({@code keepaliveTime} in effect and at least 30 s shorter): a ping is activity, and
 * resets the server's idle clock (measured in {@code PoolIdleTimeoutBenchmark}).
 * <p>
 * Deferred: it reads {@code @@session.wait_timeout} once, after startup, on a session of
 * the pool's, logged in as the pool logs in ({@link PoolServerVariables}); a server it
 * cannot reach is reported as {@code jdbc.max-lifetime-unchecked} (INFO), a refused login
 * as {@code jdbc.login-refused}.
 */
final class MaxLifetimeCheck extends DeferredPoolSessionCheck {

	/** How much earlier than the server Hikari must retire or ping an idle connection. */
	static final Duration MARGIN = Duration.ofSeconds(30);

	/**
	 * Hikari's smallest maxLifetime and keepaliveTime (it disables a shorter keepalive).
	 */
	static final Duration HIKARI_MINIMUM = Duration.ofSeconds(30);

	/** Hikari's default maxLifetime; no need to recommend longer. */
	private static final Duration HIKARI_DEFAULT_MAX_LIFETIME = Duration.ofMinutes(30);

	/** Hikari's default keepaliveTime; no need to recommend longer. */
	private static final Duration HIKARI_DEFAULT_KEEPALIVE = Duration.ofMinutes(2);

	/**
	 * Reads the {@code wait_timeout}, in seconds, of a session made like the pool's.
	 */
	@FunctionalInterface
	interface WaitTimeoutReader {

		long waitTimeoutSeconds(HikariDataSource pool) throws Exception;

	}

	private final WaitTimeoutReader reader;

	MaxLifetimeCheck(ListableBeanFactory beanFactory) {
		this(beanFactory, new PoolServerVariables());
	}

	MaxLifetimeCheck(ListableBeanFactory beanFactory, PoolServerVariables serverVariables) {
		this(beanFactory, (pool) -> serverVariables.read(pool).waitTimeoutSeconds(), serverVariables);
	}

	MaxLifetimeCheck(ListableBeanFactory beanFactory, WaitTimeoutReader reader) {
		this(beanFactory, reader, new PoolServerVariables());
	}

	private MaxLifetimeCheck(ListableBeanFactory beanFactory, WaitTimeoutReader reader,
			PoolServerVariables serverVariables) {
		super(beanFactory, serverVariables, JdbcFindings.MAX_LIFETIME);
		this.reader = reader;
	}

	@Override
	@Nullable Finding check(String subject, HikariDataSource pool) {
		PoolDriverSettings settings = HikariPools.settings(pool);
		if (settings == null) {
			// wait_timeout is the MySQL protocol's; PostgreSQL has its own; others are
			// not asked.
			return PostgreSqlSession.isPostgreSql(pool) ? checkPostgreSql(subject, pool) : null;
		}
		Duration maxLifetime = Duration.ofMillis(pool.getMaxLifetime());
		Duration keepalive = effectiveKeepalive(pool);
		long waitTimeoutSeconds;
		try {
			waitTimeoutSeconds = this.reader.waitTimeoutSeconds(pool);
		}
		catch (Exception ex) {
			if (PoolServerVariables.isLoginRefused(ex)) {
				return serverVariables().reportsRefusal(pool) ? JdbcFindings.LOGIN_REFUSED.raise(subject,
						settings.maskedUrl(), PoolServerVariables.describe(ex)) : null;
			}
			return JdbcFindings.MAX_LIFETIME_UNCHECKED.raise(subject, settings.maskedUrl(),
					PoolServerVariables.TIMEOUT_SECONDS, PoolServerVariables.describe(ex),
					describeLifetime(maxLifetime), describe(keepalive));
		}
		return compare(pool, Duration.ofSeconds(waitTimeoutSeconds), JdbcFindings.MAX_LIFETIME,
				JdbcFindings.MAX_LIFETIME_BELOW_HIKARIS_MINIMUM, subject, waitTimeoutSeconds, settings.maskedUrl());
	}

	/**
	 * Issue 23: {@code idle_session_timeout} as the pool's own session has it (URL
	 * {@code options}, role and database settings, {@code connectionInitSql}), read on
	 * the one session per pool that {@link PoolServerVariables} makes. {@code
	 * idle_in_transaction_session_timeout} is not compared: it ends only a session left
	 * idle inside an open transaction, which a connection resting in the pool never is
	 * (Hikari rolls back a dirty one when it returns). Nor are the server's TCP keepalive
	 * settings ({@code tcp_keepalives_idle}, {@code _interval}, {@code _count}): their
	 * probes end a connection only when they go unanswered, that is when the client is
	 * gone, never an idle pool connection that is alive
	 * ({@code TcpKeepalivesOnPostgreSqlTests}), so they cannot change the advice.
	 */
	private @Nullable Finding checkPostgreSql(String subject, HikariDataSource pool) {
		String maskedUrl = String.valueOf(SecretMasker.maskUrl(pool.getJdbcUrl()));
		Duration idleSessionTimeout;
		try {
			idleSessionTimeout = Duration.ofMillis(serverVariables().readPostgreSql(pool).idleSessionTimeoutMillis());
		}
		catch (Exception ex) {
			if (PoolServerVariables.isLoginRefused(ex)) {
				return serverVariables().reportsRefusal(pool)
						? JdbcFindings.LOGIN_REFUSED.raise(subject, maskedUrl, PoolServerVariables.describe(ex)) : null;
			}
			return JdbcFindings.MAX_LIFETIME_UNCHECKED_ON_POSTGRESQL.raise(subject, maskedUrl,
					PoolServerVariables.TIMEOUT_SECONDS, PoolServerVariables.describe(ex),
					describeLifetime(Duration.ofMillis(pool.getMaxLifetime())), describe(effectiveKeepalive(pool)));
		}
		return compare(pool, idleSessionTimeout, JdbcFindings.MAX_LIFETIME_ON_POSTGRESQL,
				JdbcFindings.MAX_LIFETIME_ON_POSTGRESQL_BELOW_HIKARIS_MINIMUM, subject, describe(idleSessionTimeout),
				maskedUrl);
	}

	/**
	 * The finding when the server ends idle sessions before Hikari retires or pings them.
	 * @param serverIdleTimeout after how long idle the server ends a session, zero for
	 * never
	 * @param type the finding, when Hikari can fix it
	 * @param belowHikarisMinimum the finding, when it cannot
	 * @param timeoutArg how the message shows the server's timeout
	 */
	private @Nullable Finding compare(HikariDataSource pool, Duration serverIdleTimeout, FindingType type,
			FindingType belowHikarisMinimum, String subject, Object timeoutArg, String maskedUrl) {
		Duration maxLifetime = Duration.ofMillis(pool.getMaxLifetime());
		Duration keepalive = effectiveKeepalive(pool);
		Duration limit = serverIdleTimeout.minus(MARGIN);
		boolean retiredInTime = !maxLifetime.isZero() && maxLifetime.compareTo(limit) <= 0;
		boolean pingedInTime = !keepalive.isZero() && keepalive.compareTo(limit) <= 0;
		if (serverIdleTimeout.isNegative() || serverIdleTimeout.isZero() || retiredInTime || pingedInTime) {
			return null;
		}
		Duration idleTimeout = Duration.ofMillis(pool.getIdleTimeout());
		boolean hikariCanFixIt = limit.compareTo(HIKARI_MINIMUM) >= 0;
		Duration maxLifetimeToSet = (limit.compareTo(HIKARI_DEFAULT_MAX_LIFETIME) > 0) ? HIKARI_DEFAULT_MAX_LIFETIME
				: limit;
		Duration keepaliveToSet = (limit.compareTo(HIKARI_DEFAULT_KEEPALIVE) > 0) ? HIKARI_DEFAULT_KEEPALIVE : limit;
		return (hikariCanFixIt ? type : belowHikarisMinimum).raise(subject, timeoutArg, maskedUrl,
				describeLifetime(maxLifetime), describe(keepalive),
				idleTimeoutNote(pool, idleTimeout, serverIdleTimeout), maxLifetimeToSet.toSeconds() * 1000,
				keepaliveToSet.toSeconds() * 1000);
	}

	/**
	 * The keepalive Hikari really runs: it disables one shorter than 30 s or not shorter
	 * than maxLifetime.
	 */
	static Duration effectiveKeepalive(HikariDataSource pool) {
		long keepalive = pool.getKeepaliveTime();
		long maxLifetime = pool.getMaxLifetime();
		if (keepalive < HIKARI_MINIMUM.toMillis() || (maxLifetime != 0 && keepalive >= maxLifetime)) {
			return Duration.ZERO;
		}
		return Duration.ofMillis(keepalive);
	}

	private static String idleTimeoutNote(HikariDataSource pool, Duration idleTimeout, Duration waitTimeout) {
		// Before the pool starts, an unset minimumIdle reads -1: Hikari then uses
		// maximumPoolSize.
		int minimumIdle = (pool.getMinimumIdle() < 0) ? pool.getMaximumPoolSize() : pool.getMinimumIdle();
		if (minimumIdle < pool.getMaximumPoolSize() && !idleTimeout.isZero()
				&& idleTimeout.compareTo(waitTimeout) < 0) {
			return " (idleTimeout=" + describe(idleTimeout) + " retires only the connections above minimumIdle="
					+ minimumIdle + ")";
		}
		return "";
	}

	private static String describeLifetime(Duration maxLifetime) {
		return maxLifetime.isZero() ? "0 (no limit)" : describe(maxLifetime);
	}

	private static String describe(Duration duration) {
		if (duration.isZero()) {
			return "0 (off)";
		}
		return (duration.toMillis() % 1000 == 0) ? duration.toSeconds() + "s" : duration.toMillis() + "ms";
	}

}
