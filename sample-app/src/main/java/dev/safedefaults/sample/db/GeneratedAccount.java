package dev.safedefaults.sample.db;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/**
 * The embedded server's one account for the application: {@value #USER} from
 * {@code 127.0.0.1}, with a password generated at each start. The password lives in this
 * process only (the DataSource's environment): the server learns the account from an init
 * file that holds the password's {@code mysql_native_password} hash, never the password,
 * and that removes the anonymous accounts the install creates.
 */
final class GeneratedAccount {

	static final String USER = "sample";

	private static final SecureRandom random = new SecureRandom();

	private final String password;

	private GeneratedAccount(String password) {
		this.password = password;
	}

	/**
	 * A new account with a random password (24 random bytes, base64url: 32 characters).
	 * @return the account
	 */
	static GeneratedAccount generate() {
		byte[] bytes = new byte[24];
		random.nextBytes(bytes);
		return new GeneratedAccount(Base64.getUrlEncoder().withoutPadding().encodeToString(bytes));
	}

	String password() {
		return this.password;
	}

	/**
	 * What the server runs at startup ({@code --init-file}), with the grant tables
	 * loaded: the anonymous accounts gone, this account created with every privilege,
	 * from the loopback address only.
	 * @return the SQL
	 */
	String initFileSql() {
		return """
				DELETE FROM mysql.global_priv WHERE User = '';
				DELETE FROM mysql.db WHERE User = '';
				FLUSH PRIVILEGES;
				CREATE USER '%1$s'@'127.0.0.1' IDENTIFIED BY PASSWORD '%2$s';
				GRANT ALL PRIVILEGES ON *.* TO '%1$s'@'127.0.0.1';
				""".formatted(USER, nativePasswordHash(this.password));
	}

	/**
	 * MariaDB's {@code mysql_native_password} hash: {@code *} and SHA1(SHA1(password)) in
	 * hex.
	 */
	static String nativePasswordHash(String password) {
		try {
			MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
			byte[] once = sha1.digest(password.getBytes(StandardCharsets.UTF_8));
			return "*" + HexFormat.of().withUpperCase().formatHex(sha1.digest(once));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("Every JDK has SHA-1", ex);
		}
	}

}
