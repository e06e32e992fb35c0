package dev.safedefaults.jdbc;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A JDBC URL's query read as a driver reads it, for each driver's checks: every parameter
 * in order, repeated keys kept, each key and value in the form the driver gives it (the
 * MySQL-protocol drivers' settings and pgjdbc's {@code reWriteBatchedInserts} are read
 * through it: {@code MySqlProtocolSettingsCheckTests},
 * {@code PostgreSqlBatchRewriteCheckTests}).
 */
class JdbcUrlQueryTests {

	private static final UnaryOperator<String> RAW = UnaryOperator.identity();

	@Test
	void everyParameterInOrderWithRepeatedKeysKept() {
		assertThat(JdbcUrlQuery.parseQuery("jdbc:mysql://db/app?b=2&a=1&b=3", RAW, RAW))
			.containsExactly(Map.entry("b", "2"), Map.entry("a", "1"), Map.entry("b", "3"));
	}

	@Test
	void aUrlWithoutAQueryHasNoParameters() {
		assertThat(JdbcUrlQuery.parseQuery("jdbc:postgresql://db:5432/app", RAW, RAW)).isEmpty();
		assertThat(JdbcUrlQuery.parseQuery("jdbc:postgresql://db:5432/app?", RAW, RAW)).isEmpty();
	}

	@Test
	void aParameterWithoutEqualsHasAnEmptyValueAndBlankOnesAreSkipped() {
		assertThat(JdbcUrlQuery.parseQuery("jdbc:mysql://db/app?useSSL&&a=1& &b=", RAW, RAW))
			.containsExactly(Map.entry("useSSL", ""), Map.entry("a", "1"), Map.entry("b", ""));
	}

	@Test
	void aValueKeepsEverythingAfterItsFirstEquals() {
		assertThat(JdbcUrlQuery.parseQuery("jdbc:mysql://db/app?sessionVariables=wait_timeout=28800", RAW, RAW))
			.containsExactly(Map.entry("sessionVariables", "wait_timeout=28800"));
	}

	@Test
	void eachKeyAndValueTakesTheFormTheDriverGivesIt() {
		List<Map.Entry<String, String>> parameters = JdbcUrlQuery.parseQuery(
				"jdbc:mysql://db/app?UseSSL=%20true%20&reWrite%42atched=tru%65",
				(key) -> JdbcUrlQuery.decode(key).toLowerCase(Locale.ROOT),
				(value) -> JdbcUrlQuery.decode(value).trim());
		assertThat(parameters).containsExactly(Map.entry("usessl", "true"), Map.entry("rewritebatched", "true"));
		assertThat(JdbcUrlQuery.parseQuery("jdbc:mysql://db/app?reWrite%42atched=tru%65", RAW, RAW))
			.as("a driver that reads them raw")
			.containsExactly(Map.entry("reWrite%42atched", "tru%65"));
	}

	@Test
	void decodingIsUrlDecodersAndTextThatDoesNotDecodeIsKept() {
		assertThat(JdbcUrlQuery.decode("a%20b+c")).isEqualTo("a b c");
		assertThat(JdbcUrlQuery.decode("%E2%82%AC")).isEqualTo("\u20ac");
		assertThat(JdbcUrlQuery.decode("100%")).isEqualTo("100%");
		assertThat(JdbcUrlQuery.decode("%zz")).isEqualTo("%zz");
	}

}
