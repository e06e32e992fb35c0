package dev.safedefaults.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

import javax.sql.DataSource;

import org.springframework.beans.factory.InitializingBean;

/** What JPA or Flyway does: the pool's first connection during startup. */
public class PoolStartedAtStartup implements InitializingBean {

	private final DataSource dataSource;

	public PoolStartedAtStartup(DataSource dataSource) {
		this.dataSource = dataSource;
	}

	@Override
	public void afterPropertiesSet() throws SQLException {
		try (Connection connection = this.dataSource.getConnection()) {
			// the pool now runs
		}
	}

}
