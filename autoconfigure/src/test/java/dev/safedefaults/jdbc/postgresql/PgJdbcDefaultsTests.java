package dev.safedefaults.jdbc.postgresql;

import org.junit.jupiter.api.Test;
import org.postgresql.PGProperty;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pgjdbc defaults the PostgreSQL checks and their findings rest on, as pgjdbc's
 * {@link PGProperty} reports them (42.7.14): a pgjdbc upgrade that changed one of them
 * fails here. The checks read the values in effect from the connection itself
 * ({@link PostgreSqlRoute}, {@link PostgreSqlSession}); these are what the findings' text
 * and the batch-rewrite check take as the default.
 */
class PgJdbcDefaultsTests {

	@Test
	void serverPreparesFromTheFifthExecution() {
		// jdbc.prepared-statements-behind-pooler: "prepareThreshold, 5 by default".
		assertThat(PGProperty.PREPARE_THRESHOLD.getDefaultValue()).isEqualTo("5");
		assertThat(PostgreSqlFindings.PREPARED_STATEMENTS_BEHIND_POOLER.title())
			.contains("prepareThreshold, 5 by default");
	}

	@Test
	void noSocketTimeoutByDefault() {
		// PostgreSqlTimeoutsCheck: socketTimeout 0, its default, is none.
		assertThat(PGProperty.SOCKET_TIMEOUT.getDefaultValue()).isEqualTo("0");
	}

	@Test
	void batchedInsertsAreNotRewrittenByDefaultAndTheKeyIsPgJdbcs() {
		assertThat(PGProperty.REWRITE_BATCHED_INSERTS.getDefaultValue()).isEqualTo("false");
		assertThat(PGProperty.REWRITE_BATCHED_INSERTS.getName()).isEqualTo(PostgreSqlBatchRewriteCheck.REWRITE_KEY);
	}

}
