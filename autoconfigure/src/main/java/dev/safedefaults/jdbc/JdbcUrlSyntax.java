package dev.safedefaults.jdbc;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.safedefaults.check.SecretMasker;
import org.jspecify.annotations.Nullable;

/**
 * The strict grammar of a JDBC URL's parts, and how each part is shown: host lists (with
 * Connector/J's {@code address=(…)} and {@code (key=value,…)} forms), query parameters,
 * and the one rule for values (shown only for a listed setting holding a plain word or
 * number). A part that does not fit the grammar makes the caller show the scheme only.
 */
final class JdbcUrlSyntax {

	private static final String MASK = SecretMasker.MASK;

	/** Settings whose values are shown: what the starter reports on, and timeouts. */
	private static final Set<String> SHOWN_VALUES = Set.of("useserverprepstmts", "cacheprepstmts", "prepstmtcachesize",
			"prepstmtcachesqllimit", "useconfigs", "autoreconnect", "allowmultiqueries", "rewritebatchedstatements",
			"uselocalsessionstate", "uselocaltransactionstate", "enablequerytimeouts", "cacheresultsetmetadata",
			"cacheserverconfiguration", "elidesetautocommits", "maintaintimestats", "cachecallablestmts",
			"usecursorfetch", "defaultfetchsize", "connecttimeout", "sockettimeout", "querytimeout", "logintimeout",
			"connectiontimeout", "locktimeout", "databasename", "database", "tcpkeepalive", "permitmysqlscheme",
			"sslmode", "usessl", "db_close_delay", "mode", "create");

	/** Keys of host descriptions whose values are the address itself. */
	static final Set<String> ADDRESS_VALUES = Set.of("host", "port", "protocol", "type", "priority", "service_name",
			"sid", "server", "instancename");

	static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.\\-]{1,128}");

	static final Pattern SAFE_VALUE = Pattern.compile("[A-Za-z0-9_.,\\-]{1,64}");

	static final Pattern HOST = Pattern.compile("(?:[A-Za-z0-9_\\-]+(?:\\.[A-Za-z0-9_\\-]+)*|\\[[0-9A-Fa-f:.]+\\])");

	private static final Pattern HOST_PORT = Pattern.compile("(" + HOST.pattern() + ")?(?::(\\d{1,5}))?");

	static final Pattern PATH = Pattern.compile("[A-Za-z0-9_.$~/:\\-]{0,256}");

	private JdbcUrlSyntax() {
	}

	/** {@code name=value&…}; names are percent-decoded as drivers decode them. */
	static boolean appendQuery(StringBuilder out, String query) {
		List<String> rendered = new ArrayList<>();
		for (String pair : query.split("&", -1)) {
			if (pair.isBlank()) {
				continue;
			}
			int equals = pair.indexOf('=');
			String name = decode((equals < 0) ? pair : pair.substring(0, equals));
			if (name == null || !NAME.matcher(name.strip()).matches()) {
				return false;
			}
			name = name.strip();
			if (equals < 0) {
				rendered.add(name);
			}
			else {
				rendered.add(name + "=" + shownValue(name, decode(pair.substring(equals + 1))));
			}
		}
		out.append('?').append(String.join("&", rendered));
		return true;
	}

	/**
	 * Comma-separated hosts: {@code host[:port]}, {@code [ipv6]}, {@code address=(k=v)…},
	 * {@code (k=v,…)}.
	 */
	static @Nullable String renderHosts(String authority) {
		List<String> hosts = new ArrayList<>();
		int i = 0;
		while (true) {
			int end;
			String rendered;
			if (authority.regionMatches(true, i, "address=", 0, 8)) {
				end = parenthesizedEnd(authority, i + 8);
				rendered = (end < 0) ? null : renderAddressGroups(authority.substring(i + 8, end), "address=");
			}
			else if (authority.startsWith("(", i)) {
				end = parenthesizedEnd(authority, i);
				rendered = (end < 0) ? null : renderKeyValueHost(authority.substring(i, end));
			}
			else {
				int comma = authority.indexOf(',', i);
				end = (comma < 0) ? authority.length() : comma;
				Matcher hostPort = HOST_PORT.matcher(authority.substring(i, end).strip());
				rendered = hostPort.matches() ? hostPort.group() : null;
			}
			if (rendered == null) {
				return null;
			}
			hosts.add(rendered);
			if (end >= authority.length()) {
				return String.join(",", hosts);
			}
			if (authority.charAt(end) != ',') {
				return null;
			}
			i = end + 1;
		}
	}

	/** The end (exclusive) of consecutive {@code (…)} groups starting at {@code from}. */
	private static int parenthesizedEnd(String text, int from) {
		int i = from;
		if (i >= text.length() || text.charAt(i) != '(') {
			return -1;
		}
		while (i < text.length() && text.charAt(i) == '(') {
			int close = text.indexOf(')', i);
			if (close < 0) {
				return -1;
			}
			i = close + 1;
		}
		return i;
	}

	/** {@code (host=h)(port=3306)(password=…)}. */
	private static @Nullable String renderAddressGroups(String groups, String lead) {
		StringBuilder out = new StringBuilder(lead);
		int i = 0;
		while (i < groups.length()) {
			int close = groups.indexOf(')', i);
			String pair = groups.substring(i + 1, close);
			String rendered = renderAddressPair(pair);
			if (rendered == null || pair.indexOf('(') >= 0) {
				return null;
			}
			out.append('(').append(rendered).append(')');
			i = close + 1;
		}
		return out.toString();
	}

	/** {@code (host=h,port=3306,user=u,password=…)}: one group, commas between pairs. */
	private static @Nullable String renderKeyValueHost(String group) {
		if (!group.endsWith(")") || group.indexOf(')') != group.length() - 1) {
			return null;
		}
		List<String> pairs = new ArrayList<>();
		for (String pair : group.substring(1, group.length() - 1).split(",", -1)) {
			String rendered = renderAddressPair(pair);
			if (rendered == null) {
				return null;
			}
			pairs.add(rendered);
		}
		return "(" + String.join(",", pairs) + ")";
	}

	private static @Nullable String renderAddressPair(String pair) {
		int equals = pair.indexOf('=');
		if (equals < 0) {
			return null;
		}
		String name = pair.substring(0, equals).strip();
		if (!NAME.matcher(name).matches()) {
			return null;
		}
		String value = pair.substring(equals + 1).strip();
		if (ADDRESS_VALUES.contains(name.toLowerCase(Locale.ROOT))) {
			return SAFE_VALUE.matcher(value).matches() || HOST.matcher(value).matches() ? name + "=" + value : null;
		}
		return name + "=" + shownValue(name, value);
	}

	static String shownValue(String name, @Nullable String value) {
		if (value != null && SHOWN_VALUES.contains(name.toLowerCase(Locale.ROOT))
				&& SAFE_VALUE.matcher(value).matches()) {
			return value;
		}
		return MASK;
	}

	static @Nullable String decode(String text) {
		try {
			return URLDecoder.decode(text, StandardCharsets.UTF_8);
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}

	static int indexOfAny(String text, String characters, int from) {
		for (int i = from; i < text.length(); i++) {
			if (characters.indexOf(text.charAt(i)) >= 0) {
				return i;
			}
		}
		return text.length();
	}

}
