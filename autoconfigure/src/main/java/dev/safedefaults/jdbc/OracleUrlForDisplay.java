package dev.safedefaults.jdbc;

import java.util.Locale;

import org.jspecify.annotations.Nullable;

import static dev.safedefaults.jdbc.JdbcUrlSyntax.ADDRESS_VALUES;
import static dev.safedefaults.jdbc.JdbcUrlSyntax.HOST;
import static dev.safedefaults.jdbc.JdbcUrlSyntax.NAME;
import static dev.safedefaults.jdbc.JdbcUrlSyntax.PATH;
import static dev.safedefaults.jdbc.JdbcUrlSyntax.SAFE_VALUE;
import static dev.safedefaults.jdbc.JdbcUrlSyntax.appendQuery;
import static dev.safedefaults.jdbc.JdbcUrlSyntax.indexOfAny;
import static dev.safedefaults.jdbc.JdbcUrlSyntax.renderHosts;
import static dev.safedefaults.jdbc.JdbcUrlSyntax.shownValue;

/**
 * Renders an Oracle thin URL for display: credentials ({@code scott/tiger@}) removed,
 * EZConnect hosts, service or SID shown, a {@code (DESCRIPTION=…)} shown with its address
 * values only.
 */
final class OracleUrlForDisplay {

	private OracleUrlForDisplay() {
	}

	/**
	 * Oracle thin: {@code [user/password]@(//)host[:port][/service|:sid][?…]} or
	 * {@code @(DESCRIPTION=…)}.
	 */
	static @Nullable String render(String prefix, String rest) {
		int query = rest.indexOf('?');
		int at = rest.lastIndexOf('@', (query < 0) ? rest.length() : query);
		if (at < 0) {
			return null;
		}
		String address = rest.substring(at + 1);
		StringBuilder out = new StringBuilder(prefix).append('@');
		if (address.startsWith("(")) {
			String descriptor = renderDescriptor(address);
			return (descriptor != null) ? out.append(descriptor).toString() : null;
		}
		String ezConnect = address.startsWith("//") ? address.substring(2) : address;
		int queryStart = ezConnect.indexOf('?');
		String main = (queryStart < 0) ? ezConnect : ezConnect.substring(0, queryStart);
		int serviceStart = indexOfAny(main, "/", 0);
		String hostsPart = main.substring(0, serviceStart);
		String service = main.substring(serviceStart);
		String sid = null;
		if (serviceStart == main.length()) {
			int lastColon = hostsPart.lastIndexOf(':');
			int firstColon = hostsPart.indexOf(':');
			if (lastColon > firstColon && firstColon >= 0) {
				sid = hostsPart.substring(lastColon + 1);
				hostsPart = hostsPart.substring(0, lastColon);
			}
		}
		String hosts = renderHosts(hostsPart);
		if (hosts == null || !PATH.matcher(service).matches() || (sid != null && !NAME.matcher(sid).matches())) {
			return null;
		}
		out.append(address.startsWith("//") ? "//" : "").append(hosts).append(service);
		if (sid != null) {
			out.append(':').append(sid);
		}
		if (queryStart >= 0 && !appendQuery(out, ezConnect.substring(queryStart + 1))) {
			return null;
		}
		return out.toString();
	}

	/**
	 * {@code (NAME=value)} or {@code (NAME=(…)(…))}, nested; values shown for address
	 * keys only.
	 */
	private static @Nullable String renderDescriptor(String text) {
		StringBuilder out = new StringBuilder();
		int end = descriptor(text, 0, out);
		while (end > 0 && end < text.length() && text.charAt(end) == '(') {
			end = descriptor(text, end, out);
		}
		return (end == text.length()) ? out.toString() : null;
	}

	private static int descriptor(String text, int from, StringBuilder out) {
		if (from >= text.length() || text.charAt(from) != '(') {
			return -1;
		}
		int equals = text.indexOf('=', from);
		if (equals < 0) {
			return -1;
		}
		String name = text.substring(from + 1, equals).strip();
		if (!NAME.matcher(name).matches()) {
			return -1;
		}
		out.append('(').append(name).append('=');
		int i = equals + 1;
		while (i < text.length() && text.charAt(i) == ' ') {
			i++;
		}
		if (i < text.length() && text.charAt(i) == '(') {
			while (i < text.length() && text.charAt(i) == '(') {
				i = descriptor(text, i, out);
				if (i < 0) {
					return -1;
				}
			}
		}
		else {
			int close = text.indexOf(')', i);
			if (close < 0 || text.substring(i, close).indexOf('(') >= 0) {
				return -1;
			}
			String value = text.substring(i, close).strip();
			boolean address = ADDRESS_VALUES.contains(name.toLowerCase(Locale.ROOT));
			out.append(address && (SAFE_VALUE.matcher(value).matches() || HOST.matcher(value).matches()) ? value
					: shownValue(name, value));
			i = close;
		}
		if (i >= text.length() || text.charAt(i) != ')') {
			return -1;
		}
		out.append(')');
		return i + 1;
	}

}
