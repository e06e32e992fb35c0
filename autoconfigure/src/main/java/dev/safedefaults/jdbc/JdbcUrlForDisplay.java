package dev.safedefaults.jdbc;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.safedefaults.check.SecretMasker;
import org.jspecify.annotations.Nullable;

import static dev.safedefaults.jdbc.JdbcUrlSyntax.NAME;
import static dev.safedefaults.jdbc.JdbcUrlSyntax.PATH;
import static dev.safedefaults.jdbc.JdbcUrlSyntax.appendQuery;
import static dev.safedefaults.jdbc.JdbcUrlSyntax.indexOfAny;
import static dev.safedefaults.jdbc.JdbcUrlSyntax.renderHosts;
import static dev.safedefaults.jdbc.JdbcUrlSyntax.shownValue;

/**
 * Renders a JDBC URL for display from what is parsed out of it, never by deleting what
 * looks secret: the scheme, the hosts and ports, the database (or path), and the names of
 * the parameters. A parameter's value is shown only when its name is on a short list of
 * settings safe-defaults reports on (statement caching, {@code useConfigs}, timeouts…)
 * and the value is a plain word or number; every other value is
 * {@value SecretMasker#MASK}. User-info ({@code user:password@}, Oracle's
 * {@code scott/tiger@}) is removed. A URL that does not parse completely under these
 * strict rules is shown as its scheme only, so a character the parser did not expect can
 * never carry part of a secret out.
 * <p>
 * Shapes: {@code //} URLs (MySQL and MariaDB Connector/J with their {@code address=(…)}
 * and {@code (key=value,…)} host forms, PostgreSQL, SQL Server with {@code ;key=value}
 * and {@code {braced}} values, H2 over TCP, multi-host lists, IPv6), Oracle thin
 * (EZConnect and {@code (DESCRIPTION=…)}), and path URLs with {@code ;key=value} settings
 * (H2, Derby, HSQLDB, SQLite).
 */
public final class JdbcUrlForDisplay {

	private static final String MASK = SecretMasker.MASK;

	private static final Pattern SCHEME = Pattern.compile("(?i)jdbc:(?:[a-z][a-z0-9+.\\-]*:)+");

	private static final Pattern FIRST_SUBPROTOCOL = Pattern.compile("(?i)jdbc:[a-z][a-z0-9+.\\-]*:");

	private JdbcUrlForDisplay() {
	}

	/**
	 * Renders a JDBC URL for display.
	 * @param url the URL, may be {@code null}
	 * @return the URL as parsed with every value not on the list masked; its scheme only
	 * when it does not parse; {@value SecretMasker#MASK} when it is not a JDBC URL;
	 * {@code null} when {@code url} is
	 */
	static @Nullable String render(@Nullable String url) {
		if (url == null) {
			return null;
		}
		String trimmed = url.strip();
		if (!SCHEME.matcher(trimmed).lookingAt()) {
			return MASK;
		}
		String rendered = renderedIfParsed(trimmed);
		return (rendered != null) ? rendered : schemeOnly(trimmed);
	}

	/**
	 * Whether a URL parses under the display rules, so that what a reader takes for its
	 * parameter names can be shown: a URL that does not parse may have a secret where a
	 * name should be.
	 * @param url the URL, may be {@code null}
	 * @return {@code true} when {@link #render(String)} shows more than the scheme
	 */
	public static boolean parses(@Nullable String url) {
		return url != null && renderedIfParsed(url.strip()) != null;
	}

	/**
	 * Renders a stripped URL that parses under the display rules.
	 * @param trimmed the URL, stripped
	 * @return the rendered URL, {@code null} when it is not a JDBC URL or does not parse
	 * (an unexpected shape is shown as nothing more than its scheme)
	 */
	private static @Nullable String renderedIfParsed(String trimmed) {
		Matcher scheme = SCHEME.matcher(trimmed);
		if (!scheme.lookingAt()) {
			return null;
		}
		try {
			return renderParsed(scheme.group(), trimmed.substring(scheme.end()));
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	/**
	 * The URL's scheme ({@code jdbc:} and the first sub-protocol), what an unparsable URL
	 * is shown as.
	 * @param url a text starting with {@code jdbc:}
	 * @return the scheme, {@value SecretMasker#MASK} when there is none
	 */
	public static String schemeOnly(String url) {
		Matcher first = FIRST_SUBPROTOCOL.matcher(url);
		return first.lookingAt() ? first.group().toLowerCase(Locale.ROOT) : MASK;
	}

	private static @Nullable String renderParsed(String prefix, String rest) {
		String lowerPrefix = prefix.toLowerCase(Locale.ROOT);
		if (lowerPrefix.startsWith("jdbc:oracle:")) {
			return OracleUrlForDisplay.render(prefix, rest);
		}
		if (rest.startsWith("//")) {
			return renderAuthorityUrl(prefix, rest.substring(2), lowerPrefix.startsWith("jdbc:sqlserver:"));
		}
		return renderPathUrl(prefix, rest);
	}

	/** {@code //[user-info@]hosts[/path][;settings][?query]}. */
	private static @Nullable String renderAuthorityUrl(String prefix, String rest, boolean semicolonEndsAuthority) {
		int authorityEnd = indexOfAny(rest, semicolonEndsAuthority ? "/?#;" : "/?#", 0);
		String authority = rest.substring(0, authorityEnd);
		authority = authority.substring(authority.lastIndexOf('@') + 1);
		String hosts = renderHosts(authority);
		if (hosts == null) {
			return null;
		}
		StringBuilder out = new StringBuilder(prefix).append("//").append(hosts);
		String tail = rest.substring(authorityEnd);
		if (tail.startsWith("#")) {
			return null;
		}
		return appendPathAndSettings(out, tail);
	}

	/**
	 * {@code path[;settings][?query]}: H2, Derby, HSQLDB, SQLite, PostgreSQL without
	 * host.
	 */
	private static @Nullable String renderPathUrl(String prefix, String rest) {
		return appendPathAndSettings(new StringBuilder(prefix), rest);
	}

	private static @Nullable String appendPathAndSettings(StringBuilder out, String tail) {
		int queryStart = tail.indexOf('?');
		String beforeQuery = (queryStart < 0) ? tail : tail.substring(0, queryStart);
		int settingsStart = beforeQuery.indexOf(';');
		String path = (settingsStart < 0) ? beforeQuery : beforeQuery.substring(0, settingsStart);
		if (!PATH.matcher(path).matches()) {
			return null;
		}
		out.append(path);
		if (settingsStart >= 0 && !appendSemicolonSettings(out, beforeQuery.substring(settingsStart + 1))) {
			return null;
		}
		if (queryStart >= 0 && !appendQuery(out, tail.substring(queryStart + 1))) {
			return null;
		}
		return out.toString();
	}

	/** {@code key=value;key={va;lue};…}, SQL Server's braces included. */
	private static boolean appendSemicolonSettings(StringBuilder out, String settings) {
		int i = 0;
		while (i < settings.length()) {
			int equals = settings.indexOf('=', i);
			int semicolon = settings.indexOf(';', i);
			if (equals < 0 || (semicolon >= 0 && semicolon < equals)) {
				int end = (semicolon < 0) ? settings.length() : semicolon;
				String name = settings.substring(i, end).strip();
				if (!name.isEmpty()) {
					if (!NAME.matcher(name).matches()) {
						return false;
					}
					out.append(';').append(name);
				}
				i = end + 1;
				continue;
			}
			String name = settings.substring(i, equals).strip();
			if (!NAME.matcher(name).matches()) {
				return false;
			}
			int valueStart = equals + 1;
			int valueEnd;
			String value;
			if (valueStart < settings.length() && settings.charAt(valueStart) == '{') {
				int close = closingBrace(settings, valueStart + 1);
				if (close < 0) {
					return false;
				}
				value = null;
				valueEnd = close + 1;
				if (valueEnd < settings.length() && settings.charAt(valueEnd) != ';') {
					return false;
				}
			}
			else {
				valueEnd = (semicolon < 0) ? settings.length() : semicolon;
				value = settings.substring(valueStart, valueEnd).strip();
			}
			out.append(';').append(name).append('=').append(shownValue(name, value));
			i = valueEnd + 1;
		}
		return true;
	}

	private static int closingBrace(String text, int from) {
		for (int i = from; i < text.length(); i++) {
			if (text.charAt(i) == '}') {
				if (i + 1 < text.length() && text.charAt(i + 1) == '}') {
					i++;
					continue;
				}
				return i;
			}
		}
		return -1;
	}

}
