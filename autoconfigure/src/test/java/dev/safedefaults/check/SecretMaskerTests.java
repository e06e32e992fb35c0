package dev.safedefaults.check;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one masking routine every finding, status and endpoint response passes through. A
 * JDBC URL is rendered by the jdbc feature's {@code JdbcUrlForDisplay}, which
 * {@code JdbcUrlDisplayForm} (listed in {@code META-INF/spring.factories}) lends to this
 * routine, so that {@code check} itself knows no JDBC syntax: the URL cases here are that
 * renderer's tests. Covers {@code UrlDisplayForm}, the contract it is lent through: a
 * value of its kind rendered whole, a URL of its kind found inside free text and shown as
 * its scheme and one mask when its end is unknown, and a rendering kept as it is.
 */
class SecretMaskerTests {

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|',
			textBlock = """
					jdbc:mysql://app:s3cr3t@db.example:3306/orders                                        | jdbc:mysql://db.example:3306/orders
					jdbc:mysql://db.example:3306/orders?user=app&password=s3cr3t&useSSL=true              | jdbc:mysql://db.example:3306/orders?******
					jdbc:mysql://db.example/orders?PASSWORD=s3cr3t                                         | jdbc:mysql://db.example/orders?******
					jdbc:mysql://address=(host=db.example)(port=3306)(user=app)(password=s3cr3t)/orders    | jdbc:mysql:
					jdbc:mysql://(host=db.example,port=3306,user=app,password=s3cr3t)/orders               | jdbc:mysql:
					jdbc:mysql://db.example/orders?trustCertificateKeyStorePassword=s3cr3t&clientCertificateKeyStorePassword=s3cr3t2 | jdbc:mysql://db.example/orders?******
					jdbc:mysql:loadbalance://app:s3cr3t@db1.example,db2.example/orders                     | jdbc:mysql:loadbalance://db1.example,db2.example/orders
					jdbc:mysql+srv://app:s3cr3t@_mysql._tcp.db.example/orders                              | jdbc:mysql+srv://_mysql._tcp.db.example/orders
					jdbc:mysql://app:s3c@r3t@db.example/orders                                             | jdbc:mysql://db.example/orders
					jdbc:mariadb://db.example:3306/orders?user=app&password=s3cr3t                         | jdbc:mariadb://db.example:3306/orders?******
					jdbc:mariadb://app:s3cr3t@db.example/orders                                            | jdbc:mariadb://db.example/orders
					jdbc:mariadb:replication://db1.example,db2.example/orders?password=s3cr3t&keyStorePassword=s3cr3t2 | jdbc:mariadb:replication://db1.example,db2.example/orders?******
					jdbc:mariadb://db.example/orders?trustStorePassword=s3cr3t&sslMode=verify-full        | jdbc:mariadb://db.example/orders?******
					jdbc:mariadb://address=(host=db.example)(port=3306)(type=primary)/orders?pwd=s3cr3t    | jdbc:mariadb:
					jdbc:sqlserver://db.example;user=app;password=s3cr3t;databaseName=orders               | jdbc:sqlserver://db.example;******
					jdbc:oracle:thin:scott/s3cr3t@//db.example:1521/orders                                 | jdbc:oracle:thin:@//db.example:1521/orders
					jdbc:oracle:thin:scott/s3cr3t@db.example:1521:ORCL                                     | jdbc:oracle:thin:@db.example:1521:ORCL
					jdbc:postgresql://db1.example:5432,db2.example:5433/orders?user=app&password=s3cr3t&sslmode=require | jdbc:postgresql://db1.example:5432,db2.example:5433/orders?******
					jdbc:h2:mem:orders;DB_CLOSE_DELAY=-1;PASSWORD=s3cr3t                                   | jdbc:h2:mem:orders;******
					jdbc:mysql://db.example/orders?pass%77ord=s3cr3t                                       | jdbc:mysql://db.example/orders?******
					""")
	void rendersTheUrlFromWhatIsParsed(String url, String expected) {
		String masked = SecretMasker.maskUrl(url);
		assertThat(masked).isEqualTo(expected).doesNotContain("s3cr3t").doesNotContain("r3t");
	}

	@Test
	void neverShowsAParameterNameOrValueEvenOfTheSettingsTheStarterReportsOn() {
		String url = "jdbc:mysql://db.example:3306/orders?useServerPrepStmts=true&cachePrepStmts=true"
				+ "&prepStmtCacheSize=250&prepStmtCacheSqlLimit=2048&useConfigs=maxPerformance&autoReconnect=false"
				+ "&allowMultiQueries=true&rewriteBatchedStatements=true&connectTimeout=3000&user=app&serverTimezone=UTC";
		assertThat(SecretMasker.maskUrl(url)).isEqualTo("jdbc:mysql://db.example:3306/orders?******");
	}

	@Test
	void theParametersAreOneMaskAfterTheSeparatorThatIntroducedThem() {
		assertThat(SecretMasker.maskUrl("jdbc:mysql://db/orders?useConfigs=max%20Perf"))
			.isEqualTo("jdbc:mysql://db/orders?******");
		assertThat(SecretMasker.maskUrl("jdbc:h2:tcp://db.example:9092/orders;DB_CLOSE_DELAY=-1"))
			.isEqualTo("jdbc:h2:tcp://db.example:9092/orders;******");
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|', textBlock = """
			jdbc:mysql://u:pa/ss@db.example/orders               | jdbc:mysql:
			jdbc:mysql://u:pa#ss@db.example/orders               | jdbc:mysql:
			jdbc:mysql://address=(host=db)(password=a)b)/orders  | jdbc:mysql:
			jdbc:mysql://(host=db,password=a,b)/orders           | jdbc:mysql:
			jdbc:oracle:thin:scott/pa?ss@//db:1521/orders         | jdbc:oracle:
			jdbc:db2://db:50000/orders:user=app;password=s3cr3t; | jdbc:db2:
			JDBC:MYSQL://db/x y                                  | jdbc:mysql:
			""")
	void anUnparsableUrlIsShownAsItsSchemeOnly(String url, String expected) {
		assertThat(SecretMasker.maskUrl(url)).isEqualTo(expected);
	}

	@Test
	void aTextThatIsNotAJdbcUrlIsMaskedWhole() {
		assertThat(SecretMasker.maskUrl("scott/tiger@db:1521/orders")).isEqualTo(SecretMasker.MASK);
		assertThat(SecretMasker.maskUrl(null)).isNull();
	}

	@Test
	void renderingIsAFixedPointSoMaskingTwiceChangesNothing() {
		String url = "jdbc:mysql://address=(host=db)(port=3306)(password=s3cr3t)/orders?useServerPrepStmts=true&pass%77ord=x";
		String once = SecretMasker.maskUrl(url);
		assertThat(SecretMasker.maskUrl(once)).isEqualTo(once);
		assertThat(SecretMasker.maskText("on " + once + ": every statement"))
			.isEqualTo("on " + once + ": every statement");
	}

	@Test
	void aRawUrlInsideFreeTextTakesTheRestOfTheTextWithIt() {
		String text = "Cannot connect to jdbc:mysql://db/orders?password=s3c r3t9 (connection refused)";
		assertThat(SecretMasker.maskText(text)).isEqualTo("Cannot connect to jdbc:mysql:******");
	}

	@Test
	void aDisplayFormUrlInsideProseKeepsThePunctuationAroundIt() {
		String text = "pool (MariaDB Connector/J, jdbc:mariadb://db/orders?******): added cachePrepStmts=true";
		assertThat(SecretMasker.maskText(text)).isEqualTo(text);
	}

	@Test
	void aUrlFollowedOnItsLineByAnAtThatMayEndUserInformationTakesTheRestWithIt() {
		// Cut at a space inside a password: "app:4821" reads as a host and a port.
		assertThat(SecretMasker.maskText("Could not connect to jdbc:mysql://app:4821 9375@db/orders (refused)"))
			.isEqualTo("Could not connect to jdbc:mysql:******");
		// An annotation named in prose is no end of user information.
		String prose = "Nothing bounds a query on jdbc:mysql://db:3306/orders: a timeout (@Transactional(timeout), "
				+ "`@Bean` or \"@Async\") does not free it.";
		assertThat(SecretMasker.maskText(prose)).isEqualTo(prose);
	}

	@Test
	void escapesControlCharactersSoATextCannotForgeALogLine() {
		String text = "boom\r\n2026-01-01 WARN forged\tline\u0000\u001b[31m\u2028\u202e";
		assertThat(SecretMasker.maskText(text.translateEscapes()))
			.isEqualTo("boom\\r\\n2026-01-01 WARN forged\\tline\\u0000\\u001b[31m\\u2028\\u202e")
			.doesNotContain("\n", "\r", "\t");
	}

	@Test
	void masksSecretsInsideFreeText() {
		String text = "Pool HikariPool-1 (jdbc:mariadb://app:s3cr3t@db.example/orders) rejected client-secret: abc123, "
				+ "api-token=xyz789";
		assertThat(SecretMasker.maskText(text)).doesNotContain("s3cr3t", "abc123", "xyz789").contains("HikariPool-1");
		assertThat(SecretMasker.maskText("client-secret: abc123, api-token=xyz789 in db.example/orders"))
			.doesNotContain("abc123", "xyz789")
			.contains("db.example/orders");
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|', textBlock = """
			password | dbPassword | DB_PASSWORD | db-password | spring.datasource.password | pass%77ord
			accessKey | ACCESS_KEY | auth | x-auth | passphrase | jwt
			Cookie | Authorization | sig | X-Amz-Signature | key | api.token
			""")
	void keysThatLookSecretInEveryCaseStyle(String a, String b, String c, String d, String e, String f) {
		assertThat(java.util.List.of(a, b, c, d, e, f))
			.allSatisfy((key) -> assertThat(SecretMasker.isSecretKey(key)).as(key).isTrue());
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|', textBlock = """
			useServerPrepStmts | cachePrepStmts | prepStmtCacheSqlLimit | useLocalSessionState | useConfigs | host
			keepaliveTime | maxLifetime | autoReconnect | authenticationPlugins | user | databaseName
			""")
	void settingsTheStarterReportsOnAreNotSecret(String a, String b, String c, String d, String e, String f) {
		assertThat(java.util.List.of(a, b, c, d, e, f))
			.allSatisfy((key) -> assertThat(SecretMasker.isSecretKey(key)).as(key).isFalse());
	}

	@Test
	void masksPropertyValuesWhoseKeyLooksSecret() {
		assertThat(SecretMasker.maskProperty("spring.datasource.password", "s3cr3t")).isEqualTo(SecretMasker.MASK);
		assertThat(SecretMasker.maskProperty("trustCertificateKeyStorePassword", "s3cr3t"))
			.isEqualTo(SecretMasker.MASK);
		assertThat(SecretMasker.maskProperty("app.client-secret", "s3cr3t")).isEqualTo(SecretMasker.MASK);
		assertThat(SecretMasker.maskProperty("app.auth.token", "s3cr3t")).isEqualTo(SecretMasker.MASK);
		assertThat(SecretMasker.maskProperty("aws.credentials.key", "s3cr3t")).isEqualTo(SecretMasker.MASK);
		assertThat(SecretMasker.maskProperty("prepStmtCacheSize", 250)).isEqualTo("250");
		assertThat(SecretMasker.maskProperty("spring.datasource.url", "jdbc:mysql://u:s3cr3t@h/db"))
			.isEqualTo("jdbc:mysql://h/db");
	}

	@Test
	void findingsAreMaskedWhenPublished() {
		FindingsStore store = new FindingsStore(java.util.List.of());
		store.publish("test", java.util.List.of(new Finding(CheckFindings.CHECKS_FAILED.id(), Severity.WARNING,
				"jdbc:mysql://app:s3cr3t@db/orders", "failed for password=s3cr3t", "fix")));
		assertThat(store.findings()).singleElement()
			.satisfies((f) -> assertThat(f.subject() + f.message()).doesNotContain("s3cr3t"));
	}

}
