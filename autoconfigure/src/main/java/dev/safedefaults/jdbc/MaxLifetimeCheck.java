package dev.safedefaults.jdbc;

import java.time.Duration;
import java.util.List;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.DurationText;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingType;
import dev.safedefaults.check.SecretMasker;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ListableBeanFactory;

/**
 * Compares how long a MySQL-protocol pool (or, issue 23, a PostgreSQL pool, against its
 * sessions' {@code idle_session_timeout}) lets a connection sit idle with the
 * {@code wait_timeout} its sessions really have (each driver's part, what it reads and
 * how its findings word it, is a {@link SessionIdleTimeout} of its sub-package): past it
 * the server (or a proxy in front of it) closes the connection, and the next borrow meets
 * Hikari's "Failed to validate connection … Possibly consider using a shorter maxLifetime
 * value", a retry and a new connection. An idle connection is safe when Hikari retires it
 * first ({@code maxLifetime} at least 30 s shorter than {@code wait_timeout}) or pings it
 * first ({@code keepaliveTime} in effect and at least 30 s shorter): a ping is activity,
 * and resets the server's idle clock (measured in {@code PoolIdleTimeoutBenchmark}).
 * <p>
 * Deferred: it reads {@code @@session.wait_timeout} once, after startup, on a session of
 * the pool's, logged in as the pool logs in ({@link PoolServerVariables}); a server it
 * cannot reach is reported as {@code jdbc.max-lifetime-unchecked} (INFO), a refused login
 * as {@code jdbc.login-refused}.
 */
public final class MaxLifetimeCheck extends DeferredPoolSessionCheck {

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

	private final List<SessionIdleTimeout> drivers;

	/**
	 * Creates the check with its own readings of the sessions, for every driver listed.
	 * @param beanFactory where the pools are
	 */
	public MaxLifetimeCheck(ListableBeanFactory beanFactory) {
		this(beanFactory, new PoolServerVariables(), SessionIdleTimeout.listed());
	}

	MaxLifetimeCheck(ListableBeanFactory beanFactory, PoolServerVariables serverVariables) {
		this(beanFactory, serverVariables, SessionIdleTimeout.listed());
	}

	/**
	 * Creates the check with its own readings of the sessions.
	 * @param beanFactory where the pools are
	 * @param drivers each driver's part
	 */
	public MaxLifetimeCheck(ListableBeanFactory beanFactory, List<SessionIdleTimeout> drivers) {
		this(beanFactory, new PoolServerVariables(), drivers);
	}

	private MaxLifetimeCheck(ListableBeanFactory beanFactory, PoolServerVariables serverVariables,
			List<SessionIdleTimeout> drivers) {
		super(beanFactory, serverVariables, JdbcFindings.MAX_LIFETIME);
		this.drivers = List.copyOf(drivers);
	}

	@Override
	protected @Nullable Finding check(String subject, HikariDataSource pool) {
		for (SessionIdleTimeout driver : this.drivers) {
			if (driver.reads(pool)) {
				return check(subject, pool, driver);
			}
		}
		// Another driver: its sessions' idle timeout is not asked.
		return null;
	}

	/**
	 * The MySQL protocol's {@code wait_timeout}, or (issue 23) PostgreSQL's
	 * {@code idle_session_timeout}, as the pool's own session has it (URL parameters or
	 * {@code options}, role and database settings, {@code connectionInitSql}), read on
	 * the one session per pool that {@link PoolServerVariables} makes.
	 */
	private @Nullable Finding check(String subject, HikariDataSource pool, SessionIdleTimeout driver) {
		String maskedUrl = String.valueOf(SecretMasker.maskUrl(pool.getJdbcUrl()));
		Duration idleTimeout;
		try {
			idleTimeout = driver.read(pool, serverVariables());
		}
		catch (Exception ex) {
			if (PoolServerVariables.isLoginRefused(ex)) {
				return serverVariables().reportsRefusal(pool)
						? JdbcFindings.LOGIN_REFUSED.raise(subject, maskedUrl, PoolServerVariables.describe(ex)) : null;
			}
			return driver.findings()
				.unchecked()
				.raise(subject, maskedUrl, PoolServerVariables.TIMEOUT_SECONDS, PoolServerVariables.describe(ex),
						describeLifetime(Duration.ofMillis(pool.getMaxLifetime())), describe(effectiveKeepalive(pool)));
		}
		return compare(pool, idleTimeout, driver.findings(), subject, driver.shown(idleTimeout), maskedUrl);
	}

	/**
	 * The finding when the server ends idle sessions before Hikari retires or pings them.
	 * @param serverIdleTimeout after how long idle the server ends a session, zero for
	 * never
	 * @param findings the driver's findings: when Hikari can fix it, and when it cannot
	 * @param timeoutArg how the message shows the server's timeout
	 */
	private @Nullable Finding compare(HikariDataSource pool, Duration serverIdleTimeout,
			SessionIdleTimeout.Findings findings, String subject, Object timeoutArg, String maskedUrl) {
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
		return (hikariCanFixIt ? findings.tooLong() : findings.belowHikarisMinimum()).raise(subject, timeoutArg,
				maskedUrl, describeLifetime(maxLifetime), describe(keepalive),
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

	/**
	 * A duration as the findings show it: {@code 60s}, {@code 1500ms}, {@code 2h} (as
	 * {@link DurationText} writes every duration), {@code 0 (off)}.
	 * @param duration the duration
	 * @return how it is shown
	 */
	public static String describe(Duration duration) {
		return duration.isZero() ? "0 (off)" : DurationText.of(duration);
	}

}
