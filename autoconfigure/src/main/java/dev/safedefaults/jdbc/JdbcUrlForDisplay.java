package dev.safedefaults.jdbc;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.safedefaults.check.SecretMasker;
import org.jspecify.annotations.Nullable;

/**
 * Renders a JDBC URL for display from what is known to be safe only, never by deleting
 * what looks secret: the scheme, and then, where the URL has one of the shapes below with
 * every piece matching a strict syntax, its hosts with their ports and its database name.
 * No parameter, name or value, is ever shown: whatever follows those pieces is one
 * {@value SecretMasker#MASK} after the {@code ?} or {@code ;} that introduced it.
 * User-info ({@code user:password@}, Oracle's {@code scott/tiger@}) is dropped.
 * <ul>
 * <li>{@code //} URLs of any driver: {@code jdbc:mysql://db.example:3306/orders?******},
 * multi-host lists, bracketed IPv6, {@code jdbc:sqlserver://db.example;******}.</li>
 * <li>Oracle thin: {@code jdbc:oracle:thin:@//db.example:1521/orders},
 * {@code jdbc:oracle:thin:@db.example:1521:ORCL}.</li>
 * <li>Path URLs of the drivers that name a database there (H2, HSQLDB, Derby, SQLite,
 * PostgreSQL): {@code jdbc:h2:mem:orders;******}.</li>
 * </ul>
 * Anything else is shown as its scheme only ({@code jdbc:mysql:}): Connector/J's
 * {@code address=(…)} and {@code (key=value,…)} host forms, Oracle's
 * {@code (DESCRIPTION=…)}, a file path, a DB2 URL with properties in its path, and a URL
 * in which an {@code @} follows the host list, since there the user-info may go on past
 * where the hosts seem to end (a raw {@code /}, {@code ?} or {@code #} in a password).
 * Rendering is a fixed point: a rendered URL renders as itself.
 */
public final class JdbcUrlForDisplay {

	private static final String MASK = SecretMasker.MASK;

	private static final String SUBPROTOCOL = "[a-z][a-z0-9+.\\-]*";

	private static final Pattern SCHEME = Pattern.compile("(?i)jdbc:(?:" + SUBPROTOCOL + ":)+");

	private static final Pattern FIRST_SUBPROTOCOL = Pattern.compile("(?i)jdbc:(" + SUBPROTOCOL + "):");

	/**
	 * A host name, IPv4 address or bracketed IPv6 address, with an optional port.
	 */
	private static final String HOST = "(?:[A-Za-z0-9_\\-]+(?:\\.[A-Za-z0-9_\\-]+)*|\\[[0-9A-Fa-f:.]+\\])(?::\\d{1,5})?";

	/** Hosts, comma-separated. */
	private static final String HOSTS = HOST + "(?:," + HOST + ")*";

	private static final Pattern HOST_LIST = Pattern.compile("(?:" + HOSTS + ")?");

	/** A database, service, SID or file name. */
	private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.\\-]{0,128}");

	/** EZConnect: {@code [//]hosts[/service]} or {@code host:port:SID}. */
	private static final Pattern ORACLE_ADDRESS = Pattern
		.compile("(?://)?" + HOSTS + "(?:[/:][A-Za-z0-9_.\\-]{1,128})?");

	/** Drivers whose URL names a database right after the scheme. */
	private static final Set<String> PATH_DRIVERS = Set.of("h2", "hsqldb", "derby", "sqlite", "postgresql");

	private JdbcUrlForDisplay() {
	}

	/**
	 * Renders a JDBC URL for display.
	 * @param url the URL, may be {@code null}
	 * @return the URL's scheme, hosts, ports and database with the rest masked; its
	 * scheme only when it has none of the known shapes; {@value SecretMasker#MASK} when
	 * it is not a JDBC URL; {@code null} when {@code url} is
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
	 * Whether a URL has one of the shapes shown beyond the scheme, so that where its
	 * user-info ends is known: only then can what a reader takes for its parameter names
	 * be trusted not to hold part of a password.
	 * @param url the URL, may be {@code null}
	 * @return {@code true} when {@link #render(String)} shows more than the scheme
	 */
	public static boolean parses(@Nullable String url) {
		return url != null && renderedIfParsed(url.strip()) != null;
	}

	/**
	 * The URL's scheme ({@code jdbc:} and the first sub-protocol), what a URL of no known
	 * shape is shown as.
	 * @param url a text starting with {@code jdbc:}
	 * @return the scheme, {@value SecretMasker#MASK} when there is none
	 */
	public static String schemeOnly(String url) {
		Matcher first = FIRST_SUBPROTOCOL.matcher(url);
		return first.lookingAt() ? first.group().toLowerCase(Locale.ROOT) : MASK;
	}

	private static @Nullable String renderedIfParsed(String trimmed) {
		Matcher scheme = SCHEME.matcher(trimmed);
		Matcher first = FIRST_SUBPROTOCOL.matcher(trimmed);
		if (!scheme.lookingAt() || !first.lookingAt()) {
			return null;
		}
		String prefix = scheme.group().toLowerCase(Locale.ROOT);
		String driver = first.group(1).toLowerCase(Locale.ROOT);
		String rest = trimmed.substring(scheme.end());
		if (driver.equals("oracle")) {
			return renderOracle(prefix, rest);
		}
		if (rest.startsWith("//")) {
			return renderAuthorityUrl(prefix, rest.substring(2));
		}
		if (PATH_DRIVERS.contains(driver)) {
			int end = indexOfAny(rest, "?;");
			return withMaskedRest(prefix, rest.substring(0, end), rest.substring(end));
		}
		return null;
	}

	/** {@code //[user-info@]hosts[/name][?…|;…]}. */
	private static @Nullable String renderAuthorityUrl(String prefix, String rest) {
		int authorityEnd = indexOfAny(rest, "/?;#");
		String tail = rest.substring(authorityEnd);
		if (tail.indexOf('@') >= 0) {
			// The user-info may go on past where the host list seems to end.
			return null;
		}
		String authority = rest.substring(0, authorityEnd);
		String hosts = authority.substring(authority.lastIndexOf('@') + 1);
		if (!HOST_LIST.matcher(hosts).matches()) {
			return null;
		}
		String shown = prefix + "//" + hosts;
		if (!tail.startsWith("/")) {
			return withMaskedRest(shown, "", tail);
		}
		int nameEnd = indexOfAny(tail, "?;");
		return withMaskedRest(shown, tail.substring(0, nameEnd), tail.substring(nameEnd));
	}

	/**
	 * {@code [user/password]@[//]hosts[/service|:SID][?…]}; the last {@code @} ends the
	 * credentials unless a {@code ?} comes before it (then it may be a parameter's).
	 */
	private static @Nullable String renderOracle(String prefix, String rest) {
		int at = rest.lastIndexOf('@');
		if (at < 0 || rest.lastIndexOf('?', at) >= 0) {
			return null;
		}
		String address = rest.substring(at + 1);
		int end = address.indexOf('?');
		String main = (end < 0) ? address : address.substring(0, end);
		if (!ORACLE_ADDRESS.matcher(main).matches()) {
			return null;
		}
		return prefix + "@" + main + ((end < 0) ? "" : "?" + MASK);
	}

	/**
	 * The shown part, the name (with its leading {@code /}, if any), and
	 * {@value SecretMasker#MASK} after the {@code ?} or {@code ;} that starts the rest.
	 */
	private static @Nullable String withMaskedRest(String shown, String name, String rest) {
		String bare = name.startsWith("/") ? name.substring(1) : name;
		if (!NAME.matcher(bare).matches()) {
			return null;
		}
		if (rest.isEmpty()) {
			return shown + name;
		}
		char separator = rest.charAt(0);
		return (separator == '?' || separator == ';') ? shown + name + separator + MASK : null;
	}

	private static int indexOfAny(String text, String characters) {
		for (int i = 0; i < text.length(); i++) {
			if (characters.indexOf(text.charAt(i)) >= 0) {
				return i;
			}
		}
		return text.length();
	}

}
