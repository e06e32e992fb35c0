package dev.safedefaults.jdbc;

import dev.safedefaults.PropertyBounds;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The JDBC defaults for MySQL-protocol Hikari pools (MySQL, MariaDB, TiDB) and the
 * prepared-statement budget check. Invalid values fail startup with a message naming the
 * property, the value and the allowed range.
 */
@ConfigurationProperties("safe-defaults.jdbc")
public class JdbcDefaultsProperties implements InitializingBean {

	/**
	 * Largest statement cache per connection: the server's default
	 * max_prepared_stmt_count.
	 */
	static final int MAX_PREP_STMT_CACHE_SIZE = 16_382;

	/**
	 * Below this, the statements MyBatis generates are too long to be cached (incident
	 * 5).
	 */
	public static final int MIN_PREP_STMT_CACHE_SQL_LIMIT = 2048;

	static final int MAX_PREP_STMT_CACHE_SQL_LIMIT = 1_048_576;

	static final int MAX_EXPECTED_INSTANCES = 10_000;

	/**
	 * Whether to add server-side prepared statements, a statement cache and (for MySQL
	 * Connector/J) useConfigs=maxPerformance with query timeouts kept on to every Hikari
	 * pool that uses MySQL Connector/J or MariaDB Connector/J. Keys you set yourself, in
	 * the URL or in the data-source properties, always win. False leaves the pools as
	 * configured; the JDBC checks still run.
	 */
	private boolean enabled = true;

	/**
	 * How many prepared statements each connection keeps (prepStmtCacheSize). Each cached
	 * statement holds one server-side statement, counted against the server's
	 * max_prepared_stmt_count. From 1 to 16382.
	 */
	private int prepStmtCacheSize = 250;

	/**
	 * The longest SQL, in characters, that MySQL Connector/J caches
	 * (prepStmtCacheSqlLimit). Longer statements are parsed and prepared again each time.
	 * From 2048 to 1048576.
	 */
	private int prepStmtCacheSqlLimit = 2048;

	/**
	 * How many instances of this application share one database server, for the
	 * prepared-statement budget check (pool size x statement cache x instances against
	 * the server's max_prepared_stmt_count). From 1 to 10000.
	 */
	private int expectedInstances = 1;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public int getPrepStmtCacheSize() {
		return this.prepStmtCacheSize;
	}

	public void setPrepStmtCacheSize(int prepStmtCacheSize) {
		this.prepStmtCacheSize = prepStmtCacheSize;
	}

	public int getPrepStmtCacheSqlLimit() {
		return this.prepStmtCacheSqlLimit;
	}

	public void setPrepStmtCacheSqlLimit(int prepStmtCacheSqlLimit) {
		this.prepStmtCacheSqlLimit = prepStmtCacheSqlLimit;
	}

	public int getExpectedInstances() {
		return this.expectedInstances;
	}

	public void setExpectedInstances(int expectedInstances) {
		this.expectedInstances = expectedInstances;
	}

	@Override
	public void afterPropertiesSet() {
		PropertyBounds.requireRange("safe-defaults.jdbc.prep-stmt-cache-size", this.prepStmtCacheSize, 1,
				MAX_PREP_STMT_CACHE_SIZE,
				"a larger cache per connection alone would exceed the server's default max_prepared_stmt_count");
		PropertyBounds.requireRange("safe-defaults.jdbc.prep-stmt-cache-sql-limit", this.prepStmtCacheSqlLimit,
				MIN_PREP_STMT_CACHE_SQL_LIMIT, MAX_PREP_STMT_CACHE_SQL_LIMIT,
				"below 2048 the long statements that MyBatis generates are not cached");
		PropertyBounds.requireRange("safe-defaults.jdbc.expected-instances", this.expectedInstances, 1,
				MAX_EXPECTED_INSTANCES, "the number of instances of this application that share one database server");
	}

}
