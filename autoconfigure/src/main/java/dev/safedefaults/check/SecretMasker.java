package dev.safedefaults.check;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one masking routine for everything safe-defaults prints or exposes: findings, the
 * startup log, the endpoint. It masks passwords in JDBC URLs and other URLs
 * ({@code user:pass@}, {@code password=}, {@code (password=…)}, key and trust store
 * passwords) and the values of properties whose key looks like a password, secret, token
 * or credential. It errs on the side of masking too much.
 */
public final class SecretMasker {

	/** What a masked value is replaced with. */
	public static final String MASK = "******";

	private static final String SECRET_KEY_WORDS = "password|passwd|pwd|secret|token|credential|apikey|api-key|api_key|privatekey|private-key";

	private static final Pattern SECRET_KEY = Pattern.compile("(?i).*(" + SECRET_KEY_WORDS + ").*");

	/** {@code scheme://user:password@host}: the password runs to the last {@code @} of the token. */
	private static final Pattern USER_INFO = Pattern.compile("(//[^:/@\\s]*:)\\S*@");

	/**
	 * {@code key=value} or {@code key: value} pairs whose key looks secret, in URL query
	 * strings ({@code &}), semicolon lists, Connector/J's {@code (key=value)} address form
	 * and plain text.
	 */
	private static final Pattern SECRET_PAIR = Pattern.compile(
			"(?i)([\\w.\\-]*(?:" + SECRET_KEY_WORDS + ")[\\w.\\-]*\"?\\s*[=:]\\s*\"?)([^&;,)\\s\"]+)");

	private SecretMasker() {
	}

	/**
	 * Masks every secret in a text: URL credentials and secret-looking key/value pairs.
	 * @param text the text, may be {@code null}
	 * @return the masked text, {@code null} when {@code text} is
	 */
	public static String maskText(String text) {
		if (text == null || text.isEmpty()) {
			return text;
		}
		String masked = USER_INFO.matcher(text).replaceAll(match -> Matcher.quoteReplacement(match.group(1) + MASK + "@"));
		return SECRET_PAIR.matcher(masked).replaceAll(match -> Matcher.quoteReplacement(match.group(1) + MASK));
	}

	/**
	 * Masks the passwords in a JDBC URL, for MySQL Connector/J, MariaDB Connector/J and
	 * any URL of the same shapes.
	 * @param url the URL, may be {@code null}
	 * @return the masked URL
	 */
	public static String maskJdbcUrl(String url) {
		return maskText(url);
	}

	/**
	 * Masks a property's value when its key looks like a password, secret, token or
	 * credential; otherwise masks the secrets inside the value (a URL, say).
	 * @param key the property key
	 * @param value the value, may be {@code null}
	 * @return the value safe to print
	 */
	public static String maskProperty(String key, Object value) {
		if (value == null) {
			return null;
		}
		if (isSecretKey(key)) {
			return MASK;
		}
		return maskText(String.valueOf(value));
	}

	/**
	 * Whether a property key looks like it holds a secret.
	 * @param key the key
	 * @return {@code true} for keys such as {@code password}, {@code trustStorePassword},
	 * {@code client-secret}, {@code api-token}
	 */
	public static boolean isSecretKey(String key) {
		return key != null && SECRET_KEY.matcher(key).matches();
	}

}
