package dev.safedefaults.jdbc.postgresql;

import java.util.Properties;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How {@link PostgreSqlBatchRewriteCheck} reads {@code reWriteBatchedInserts}: as
 * pgjdbc's {@code Driver.parseURL} does (42.7), so the finding is raised exactly when
 * pgjdbc does not rewrite.
 */
class PostgreSqlBatchRewriteCheckTests {

	private static final String URL = "jdbc:postgresql://db:5432/app";

	@Test
	void theLastOccurrenceInTheUrlWinsAsInPgJdbc() {
		assertThat(rewrites(URL + "?reWriteBatchedInserts=true&reWriteBatchedInserts=false")).isFalse();
		assertThat(rewrites(URL + "?reWriteBatchedInserts=false&reWriteBatchedInserts=true")).isTrue();
	}

	@Test
	void theUrlValueIsPercentDecodedAndNotTrimmed() {
		assertThat(rewrites(URL + "?reWriteBatchedInserts=tru%65")).isTrue();
		assertThat(rewrites(URL + "?reWriteBatchedInserts=TRUE")).as("Boolean.parseBoolean ignores case").isTrue();
		assertThat(rewrites(URL + "?reWriteBatchedInserts=%20true")).as("pgjdbc does not trim").isFalse();
	}

	@Test
	void theUrlKeyIsRawAndCaseSensitive() {
		assertThat(rewrites(URL + "?rewritebatchedinserts=true")).isFalse();
		assertThat(rewrites(URL + "?reWriteBatched%49nserts=true")).as("pgjdbc does not decode keys").isFalse();
	}

	@Test
	void theUrlBeatsTheDataSourcePropertyWhichMayBeAnyObject() {
		Properties properties = new Properties();
		properties.put(PostgreSqlBatchRewriteCheck.REWRITE_KEY, Boolean.TRUE);
		assertThat(PostgreSqlBatchRewriteCheck.rewritesBatchedInserts(URL, properties))
			.as("Hikari passes the property's toString() to the driver")
			.isTrue();
		assertThat(PostgreSqlBatchRewriteCheck.rewritesBatchedInserts(URL + "?reWriteBatchedInserts=false", properties))
			.isFalse();
		assertThat(rewrites(URL)).as("off by default").isFalse();
	}

	private static boolean rewrites(String url) {
		return PostgreSqlBatchRewriteCheck.rewritesBatchedInserts(url, new Properties());
	}

}
