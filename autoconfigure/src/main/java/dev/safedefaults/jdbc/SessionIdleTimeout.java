package dev.safedefaults.jdbc;

import java.time.Duration;
import java.util.List;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.check.FindingType;

import org.springframework.core.io.support.SpringFactoriesLoader;

/**
 * One driver's part of {@link MaxLifetimeCheck}: after how long idle the server ends a
 * session of the pool's, read on that session, and the findings that say so in the
 * driver's words. Each driver's sub-package lists its own in
 * {@code META-INF/spring.factories} under this interface's name ({@code wait_timeout} on
 * the MySQL protocol, {@code idle_session_timeout} on PostgreSQL); the comparison with
 * Hikari's {@code maxLifetime} and {@code keepaliveTime} is the check's, the same for
 * every driver. An implementation loads without its driver.
 */
public interface SessionIdleTimeout {

	/**
	 * Whether the pool is one of this driver's.
	 * @param pool the pool
	 * @return whether this reads its sessions' idle timeout
	 */
	boolean reads(HikariDataSource pool);

	/**
	 * Reads the idle timeout of the pool's sessions, on the one session per pool and per
	 * start that {@link PoolServerVariables} makes.
	 * @param pool the pool, one this {@link #reads}
	 * @param serverVariables the readings shared by every deferred pool check
	 * @return the timeout, zero or negative for none
	 * @throws Exception the failure of the one attempt
	 */
	Duration read(HikariDataSource pool, PoolServerVariables serverVariables) throws Exception;

	/**
	 * The timeout as the finding's message shows it.
	 * @param timeout the timeout read
	 * @return its first argument
	 */
	Object shown(Duration timeout);

	/**
	 * The findings in the driver's words.
	 * @return the driver's variants of the check's findings
	 */
	Findings findings();

	/**
	 * Every driver's, as listed in {@code META-INF/spring.factories}.
	 * @return the drivers' parts
	 */
	static List<SessionIdleTimeout> listed() {
		return SpringFactoriesLoader.forDefaultResourceLocation(SessionIdleTimeout.class.getClassLoader())
			.load(SessionIdleTimeout.class);
	}

	/**
	 * One driver's variants of the findings of {@link MaxLifetimeCheck}: the same set for
	 * every driver, each checked to be a variant of the check's declaration, so that a
	 * driver can change the words but not the ids.
	 *
	 * @param tooLong when Hikari can retire or ping a connection in time: a variant of
	 * {@link JdbcFindings#MAX_LIFETIME}
	 * @param belowHikarisMinimum when the timeout is too short for Hikari (below 60 s): a
	 * variant of {@link JdbcFindings#MAX_LIFETIME}
	 * @param unchecked when the timeout could not be read: a variant of
	 * {@link JdbcFindings#MAX_LIFETIME_UNCHECKED}
	 */
	record Findings(FindingType tooLong, FindingType belowHikarisMinimum, FindingType unchecked) {

		public Findings {
			requireVariantOf(JdbcFindings.MAX_LIFETIME, tooLong);
			requireVariantOf(JdbcFindings.MAX_LIFETIME, belowHikarisMinimum);
			requireVariantOf(JdbcFindings.MAX_LIFETIME_UNCHECKED, unchecked);
		}

		private static void requireVariantOf(FindingType declared, FindingType variant) {
			if (!declared.id().equals(variant.id())) {
				throw new IllegalArgumentException(
						"Expected a variant of " + declared.id() + " but got " + variant.id());
			}
		}

	}

}
