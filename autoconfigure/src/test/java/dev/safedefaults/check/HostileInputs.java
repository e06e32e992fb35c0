package dev.safedefaults.check;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hostile inputs for everything that masks: JDBC URLs of every driver's shape and free
 * text (exception messages) carrying a secret, in the forms a driver accepts. Each secret
 * is built so that none of its 3-character fragments occurs in what the starter writes by
 * itself; {@link #assertNoFragment} then proves that no part of it survived.
 */
public final class HostileInputs {

	/** Every character the issue names, one secret per character: "Xq7" + c + "Zk9". */
	static final List<String> SPECIAL = List.of(";", ",", ")", "(", "\"", "'", "@", "&", "=", "%", "#", "?", "/", "\\",
			" ", "\n");

	private HostileInputs() {
	}

	/**
	 * A hostile case.
	 *
	 * @param name what the case is
	 * @param input the URL or text
	 * @param secret the secret inside it, as the driver or reader would see it
	 * @param url whether {@code input} is a JDBC URL (else free text)
	 */
	public record Case(String name, String input, String secret, boolean url) {

		@Override
		public String toString() {
			return this.name;
		}

	}

	/**
	 * Every case: URLs then free text.
	 * @return the cases
	 */
	public static Stream<Case> all() {
		return Stream.concat(urls(), freeText());
	}

	/**
	 * The JDBC URL cases.
	 * @return the cases
	 */
	public static Stream<Case> urls() {
		List<Case> cases = new ArrayList<>();
		for (String c : SPECIAL) {
			String secret = "Xq7" + c + "Zk9";
			String label = label(c);
			// Query value: raw where Connector/J reads it whole, percent-encoded where a
			// raw one would split it.
			boolean rawInQuery = !"&".equals(c);
			cases.add(url("Connector/J query value with " + label + (rawInQuery ? "" : " (encoded)"),
					"jdbc:mysql://db.example:3306/orders?user=app&password=" + (rawInQuery ? secret : encode(secret))
							+ "&useServerPrepStmts=true",
					secret));
			cases.add(url("user-info, percent-encoded, with " + label,
					"jdbc:mysql://app:" + encode(secret) + "@db.example:3306/orders", secret));
			cases.add(url("MariaDB address form with " + label,
					"jdbc:mariadb://address=(host=db1.example)(port=3306)(type=primary)(password=" + secret
							+ "),address=(host=db2.example)(port=3307)(type=replica)/orders",
					secret));
			cases.add(url("SQL Server braced value with " + label,
					"jdbc:sqlserver://db.example:1433;databaseName=orders;user=sa;password={"
							+ secret.replace("}", "}}") + "};encrypt=true",
					secret));
			cases.add(url("Oracle quoted password with " + label,
					"jdbc:oracle:thin:scott/\"" + secret + "\"@//db.example:1521/orders", secret));
		}
		String secret = "Vw4;Jh8@Lp3";
		cases.add(url("user-info raw with ; and @", "jdbc:mysql://app:" + secret + "@db.example/orders", secret));
		cases.add(url("user-info raw with a space", "jdbc:mysql://app:Vw4 Jh8@db.example/orders", "Vw4 Jh8"));
		// Cut at the space, what comes before reads as a host and a port, or a path.
		cases.add(url("user-info raw with a space after digits", "jdbc:mysql://app:4821 9375@db.example/orders",
				"4821 9375"));
		cases.add(url("user-info raw with a space after a path", "jdbc:mysql://app:48/2167 9375@db.example/orders",
				"48/2167 9375"));
		cases.add(url("user-info raw with /", "jdbc:mysql://app:Vw4/Jh8@db.example/orders", "Vw4/Jh8"));
		cases.add(url("user-info raw with ?", "jdbc:mysql://app:Vw4?Jh8@db.example/orders", "Vw4?Jh8"));
		cases.add(url("user-info raw with #", "jdbc:mysql://app:Vw4#Jh8@db.example/orders", "Vw4#Jh8"));
		cases.add(url("percent-encoded key pass%77ord", "jdbc:mysql://db.example/orders?pass%77ord=Vw4Jh8Lp3",
				"Vw4Jh8Lp3"));
		cases.add(url("percent-encoded key %50ASSWORD", "jdbc:mariadb://db.example/orders?%50ASSWORD=Vw4Jh8Lp3",
				"Vw4Jh8Lp3"));
		cases.add(url("key in upper case", "jdbc:mariadb://db.example/orders?PASSWORD=Vw4;Jh8", "Vw4;Jh8"));
		cases.add(url("key-value host form",
				"jdbc:mysql://(host=db.example,port=3306,user=app,password=Vw4;Jh8)/orders", "Vw4;Jh8"));
		cases.add(url("key-value host form, comma in password",
				"jdbc:mysql://(host=db.example,port=3306,password=Vw4,Jh8)/orders", "Vw4,Jh8"));
		cases.add(url("address form, parenthesis in password",
				"jdbc:mysql://address=(host=db.example)(password=Vw4)Jh8)/orders", "Vw4)Jh8"));
		cases.add(url("multi-host with user-info",
				"jdbc:mysql:replication://app:Vw4%3BJh8@db1.example:3306,db2.example:3307/orders", "Vw4;Jh8"));
		cases.add(url("load-balanced MariaDB",
				"jdbc:mariadb:loadbalance://db1.example,db2.example/orders?password=Vw4;Jh8", "Vw4;Jh8"));
		cases.add(url("IPv6 host", "jdbc:mysql://[::1]:3306/orders?password=Vw4;Jh8", "Vw4;Jh8"));
		cases.add(url("PostgreSQL multi-host",
				"jdbc:postgresql://db1.example:5432,db2.example:5433/orders?user=app&password=Vw4;Jh8&sslmode=require",
				"Vw4;Jh8"));
		cases.add(url("PostgreSQL user-info", "jdbc:postgresql://app:Vw4%40Jh8@db.example/orders", "Vw4@Jh8"));
		cases.add(url("SQL Server unbraced", "jdbc:sqlserver://db.example:1433;user=sa;password=Vw4)Jh8;encrypt=true",
				"Vw4)Jh8"));
		cases.add(url("SQL Server, brace escaped", "jdbc:sqlserver://db.example;password={Vw4}}Jh8}", "Vw4}Jh8"));
		cases.add(url("Oracle EZConnect", "jdbc:oracle:thin:scott/Vw4;Jh8@//db.example:1521/orders", "Vw4;Jh8"));
		cases.add(
				url("Oracle SID with @ in password", "jdbc:oracle:thin:scott/Vw4@Jh8@db.example:1521:ORCL", "Vw4@Jh8"));
		cases.add(url("Oracle descriptor",
				"jdbc:oracle:thin:scott/Vw4;Jh8@(DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)(HOST=db.example)(PORT=1521))"
						+ "(CONNECT_DATA=(SERVICE_NAME=orders)))",
				"Vw4;Jh8"));
		cases.add(url("Oracle password with ?", "jdbc:oracle:thin:scott/Vw4?Jh8@//db.example:1521/orders", "Vw4?Jh8"));
		cases.add(url("H2 in memory", "jdbc:h2:mem:orders;DB_CLOSE_DELAY=-1;USER=sa;PASSWORD=Vw4,Jh8", "Vw4,Jh8"));
		cases.add(url("H2 over TCP", "jdbc:h2:tcp://db.example:9092/~/orders;PASSWORD=Vw4@Jh8", "Vw4@Jh8"));
		cases.add(url("DB2 properties in the path", "jdbc:db2://db.example:50000/orders:user=app;password=Vw4;Jh8;",
				"Vw4;Jh8"));
		cases.add(url("trust store password",
				"jdbc:mysql://db.example/orders?trustCertificateKeyStorePassword=Vw4&Jh8=1", "Vw4"));
		return cases.stream();
	}

	/**
	 * The free-text cases: keys in each case style, tokens, headers, line breaks.
	 * @return the cases
	 */
	public static Stream<Case> freeText() {
		List<Case> cases = new ArrayList<>();
		cases.add(text("kebab key", "Binding failed: spring.datasource.hikari.data-source-password=Tm5;Rg2 rejected",
				"Tm5;Rg2"));
		cases.add(text("camel key", "Access denied: dbPassword: Tm5,Rg2 (login)", "Tm5,Rg2"));
		cases.add(text("upper snake key", "env DB_PASSWORD=Tm5@Rg2 was read", "Tm5@Rg2"));
		cases.add(text("snake key, quoted, space", "config db_password=\"Tm5 Rg2\" was read", "Tm5 Rg2"));
		cases.add(text("single-quoted with space", "client-secret: 'Tm5 Rg2' expired", "Tm5 Rg2"));
		cases.add(text("JSON", "{\"user\":\"app\",\"password\":\"Tm5 Rg2\"}", "Tm5 Rg2"));
		cases.add(text("accessKey", "S3 refused accessKey=Tm5Rg2Wd8 for bucket", "Tm5Rg2Wd8"));
		cases.add(text("auth", "upstream said auth=Tm5Rg2Wd8", "Tm5Rg2Wd8"));
		cases.add(text("passphrase", "key store passphrase=Tm5#Rg2 wrong", "Tm5#Rg2"));
		cases.add(text("jwt", "invalid jwt=eyTm5.Rg2Wd8", "eyTm5.Rg2Wd8"));
		cases.add(text("cookie header", "request had Cookie: SESSION=Tm5Rg2Wd8; path=/", "Tm5Rg2Wd8"));
		cases.add(text("Authorization Bearer", "401 for Authorization: Bearer Tm5.Rg2-Wd8", "Tm5.Rg2-Wd8"));
		cases.add(text("Authorization Basic", "401 for Authorization: Basic VG01OlJnMg==", "VG01OlJnMg=="));
		cases.add(text("bare bearer", "token rejected: bearer Tm5Rg2Wd8", "Tm5Rg2Wd8"));
		cases.add(text("URL key=", "GET https://maps.example/api?key=Tm5Rg2Wd8&q=x failed", "Tm5Rg2Wd8"));
		cases.add(text("URL sig=", "GET https://blob.example/c/b?sv=2024&sig=Tm5%2FRg2Wd8 failed", "Tm5%2FRg2Wd8"));
		cases.add(text("AWS signature", "X-Amz-Signature=Tm5Rg2Wd8 mismatch", "Tm5Rg2Wd8"));
		cases.add(text("percent-encoded key", "rejected pass%77ord=Tm5Rg2Wd8", "Tm5Rg2Wd8"));
		cases.add(text("HTTP user-info", "cannot reach https://app:Tm5@Rg2@proxy.example:8080/", "Tm5@Rg2"));
		cases.add(text("raw JDBC URL with a space in the password",
				"Cannot connect to jdbc:mysql://db.example/orders?password=Tm5 Rg2Wd8 (refused)", "Tm5 Rg2Wd8"));
		cases.add(text("raw JDBC URL with a newline in the password",
				"Cannot connect to jdbc:mysql://db.example/orders?password=Tm5\nRg2Wd8 (refused)", "Tm5\nRg2Wd8"));
		cases.add(text("forged log line", "boom\n2026-01-01 WARN forged password=Tm5Rg2Wd8", "Tm5Rg2Wd8"));
		cases.add(text("Hikari message",
				"Failed to get driver instance for jdbcUrl=jdbc:oracle:thin:scott/Tm5;Rg2@//db:1521/x", "Tm5;Rg2"));
		return cases.stream();
	}

	private static Case url(String name, String url, String secret) {
		return new Case(name, url, secret, true);
	}

	private static Case text(String name, String text, String secret) {
		return new Case(name, text, secret, false);
	}

	private static String encode(String text) {
		return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
	}

	private static String label(String c) {
		return switch (c) {
			case " " -> "a space";
			case "\n" -> "a newline";
			default -> "'" + c + "'";
		};
	}

	/**
	 * Every 3-character fragment of a secret, as it is and percent-encoded.
	 * @param secret the secret
	 * @return the fragments
	 */
	public static Set<String> fragments(String secret) {
		Set<String> fragments = new LinkedHashSet<>();
		for (String form : List.of(secret, encode(secret), secret.replace("\n", "\\n"))) {
			for (int i = 0; i + 3 <= form.length(); i++) {
				fragments.add(form.substring(i, i + 3));
			}
		}
		return fragments;
	}

	/**
	 * Asserts that no 3-character fragment of the secret occurs in what was written.
	 * @param hostile the case
	 * @param where what was written, named
	 * @param written the text
	 */
	public static void assertNoFragment(Case hostile, String where, String written) {
		for (String fragment : fragments(hostile.secret())) {
			assertThat(written).as("%s of case '%s' leaks '%s'", where, hostile.name(), fragment)
				.doesNotContain(fragment);
		}
	}

}
