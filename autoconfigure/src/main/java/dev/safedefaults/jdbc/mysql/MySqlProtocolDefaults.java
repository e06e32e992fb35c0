package dev.safedefaults.jdbc.mysql;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.jdbc.DriverDefaults;
import org.jspecify.annotations.Nullable;

/**
 * Which pools the MySQL-protocol defaults are for, as the feature's status tells it with
 * the defaults off: those whose driver is MySQL Connector/J or MariaDB Connector/J (the
 * same words as {@link MySqlProtocolDefaultsPostProcessor}'s for the others). Listed in
 * {@code META-INF/spring.factories}.
 */
public final class MySqlProtocolDefaults implements DriverDefaults {

	@Override
	public @Nullable String leftAloneBecause(HikariDataSource pool) {
		String jdbcUrl = pool.getJdbcUrl();
		if (jdbcUrl == null || PoolDriverSettings.of(pool) != null) {
			return null;
		}
		return MySqlProtocolDefaultsPostProcessor.notMySqlProtocol(jdbcUrl);
	}

}
