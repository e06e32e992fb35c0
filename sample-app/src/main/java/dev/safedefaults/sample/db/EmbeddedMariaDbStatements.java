package dev.safedefaults.sample.db;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import javax.sql.DataSource;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.springframework.beans.factory.ObjectProvider;

/**
 * The gauge {@value #NAME}: the statements the embedded server has executed (MariaDB's
 * {@code Questions}, this gauge's own query included), read through the application's
 * pool. The reference-workload harness counts statements per request with it, without
 * logging in to the database itself.
 */
final class EmbeddedMariaDbStatements implements MeterBinder {

	static final String NAME = "sample.db.statements";

	private final ObjectProvider<DataSource> dataSource;

	EmbeddedMariaDbStatements(ObjectProvider<DataSource> dataSource) {
		this.dataSource = dataSource;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		Gauge.builder(NAME, this, EmbeddedMariaDbStatements::questions)
			.description("Statements the embedded MariaDB server executed (Questions)")
			.register(registry);
	}

	private double questions() {
		try (Connection connection = this.dataSource.getObject().getConnection();
				Statement statement = connection.createStatement();
				ResultSet status = statement.executeQuery("SHOW GLOBAL STATUS LIKE 'Questions'")) {
			return status.next() ? status.getLong(2) : Double.NaN;
		}
		catch (SQLException ex) {
			return Double.NaN;
		}
	}

}
