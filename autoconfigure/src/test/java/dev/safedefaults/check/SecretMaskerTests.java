package dev.safedefaults.check;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SecretMaskerTests {

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|', textBlock = """
			jdbc:mysql://app:s3cr3t@db.example:3306/orders                                        | jdbc:mysql://app:******@db.example:3306/orders
			jdbc:mysql://db.example:3306/orders?user=app&password=s3cr3t&useSSL=true              | jdbc:mysql://db.example:3306/orders?user=app&password=******&useSSL=true
			jdbc:mysql://db.example/orders?PASSWORD=s3cr3t                                         | jdbc:mysql://db.example/orders?PASSWORD=******
			jdbc:mysql://address=(host=db.example)(port=3306)(user=app)(password=s3cr3t)/orders    | jdbc:mysql://address=(host=db.example)(port=3306)(user=app)(password=******)/orders
			jdbc:mysql://(host=db.example,port=3306,user=app,password=s3cr3t)/orders               | jdbc:mysql://(host=db.example,port=3306,user=app,password=******)/orders
			jdbc:mysql://db.example/orders?trustCertificateKeyStorePassword=s3cr3t&clientCertificateKeyStorePassword=s3cr3t2 | jdbc:mysql://db.example/orders?trustCertificateKeyStorePassword=******&clientCertificateKeyStorePassword=******
			jdbc:mysql:loadbalance://app:s3cr3t@db1.example,db2.example/orders                     | jdbc:mysql:loadbalance://app:******@db1.example,db2.example/orders
			jdbc:mysql+srv://app:s3cr3t@_mysql._tcp.db.example/orders                              | jdbc:mysql+srv://app:******@_mysql._tcp.db.example/orders
			jdbc:mysql://app:s3c@r3t@db.example/orders                                             | jdbc:mysql://app:******@db.example/orders
			jdbc:mariadb://db.example:3306/orders?user=app&password=s3cr3t                         | jdbc:mariadb://db.example:3306/orders?user=app&password=******
			jdbc:mariadb://app:s3cr3t@db.example/orders                                            | jdbc:mariadb://app:******@db.example/orders
			jdbc:mariadb:replication://db1.example,db2.example/orders?password=s3cr3t&keyStorePassword=s3cr3t2 | jdbc:mariadb:replication://db1.example,db2.example/orders?password=******&keyStorePassword=******
			jdbc:mariadb://db.example/orders?trustStorePassword=s3cr3t&sslMode=verify-full        | jdbc:mariadb://db.example/orders?trustStorePassword=******&sslMode=verify-full
			jdbc:mariadb://address=(host=db.example)(port=3306)(type=primary)/orders?pwd=s3cr3t    | jdbc:mariadb://address=(host=db.example)(port=3306)(type=primary)/orders?pwd=******
			jdbc:sqlserver://db.example;user=app;password=s3cr3t;databaseName=orders               | jdbc:sqlserver://db.example;user=app;password=******;databaseName=orders
			""")
	void masksThePasswordAndKeepsTheRestOfTheUrl(String url, String expected) {
		String masked = SecretMasker.maskJdbcUrl(url);
		assertThat(masked).isEqualTo(expected).doesNotContain("s3cr3t").doesNotContain("r3t");
	}

	@Test
	void leavesAUrlWithoutSecretsAlone() {
		String url = "jdbc:mysql://db.example:3306/orders?useServerPrepStmts=true&user=app";
		assertThat(SecretMasker.maskJdbcUrl(url)).isEqualTo(url);
	}

	@Test
	void masksSecretsInsideFreeText() {
		String text = "Pool HikariPool-1 (jdbc:mariadb://app:s3cr3t@db.example/orders) rejected client-secret: abc123, "
				+ "api-token=xyz789";
		assertThat(SecretMasker.maskText(text)).doesNotContain("s3cr3t", "abc123", "xyz789")
			.contains("HikariPool-1", "db.example/orders");
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
			.isEqualTo("jdbc:mysql://u:******@h/db");
	}

	@Test
	void findingsAreMaskedWhenPublished() {
		FindingsStore store = new FindingsStore(java.util.List.of());
		store.publish("test", java.util.List.of(Finding.warning(FindingCatalogue.CHECKS_FAILED,
				"jdbc:mysql://app:s3cr3t@db/orders", "failed for password=s3cr3t", "fix")));
		assertThat(store.findings()).singleElement()
			.satisfies((f) -> assertThat(f.subject() + f.message()).doesNotContain("s3cr3t"));
	}

}
