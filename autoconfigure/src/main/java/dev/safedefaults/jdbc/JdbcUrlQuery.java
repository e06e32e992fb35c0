package dev.safedefaults.jdbc;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The parameters of a JDBC URL's query ({@code ?key=value&…}) as a driver reads them:
 * each driver says what it does to a key and to a value (the MySQL-protocol drivers'
 * settings, pgjdbc's {@code reWriteBatchedInserts}). It reads only: it never renders a
 * URL (that is {@link JdbcUrlForDisplay}'s).
 */
public final class JdbcUrlQuery {

	private JdbcUrlQuery() {
	}

	/**
	 * The parameters of a JDBC URL's query ({@code ?key=value&…}), in order, repeated
	 * keys kept (a driver that lets the last one win reads the last). A parameter without
	 * {@code =} has the value {@code ""}; blank parameters are skipped.
	 * @param url the URL
	 * @param keyForm what the driver does to a key before it reads it
	 * @param valueForm what the driver does to a value (decoding, for example)
	 * @return the parameters
	 */
	public static List<Map.Entry<String, String>> parseQuery(String url, UnaryOperator<String> keyForm,
			UnaryOperator<String> valueForm) {
		List<Map.Entry<String, String>> parameters = new ArrayList<>();
		int query = url.indexOf('?');
		if (query < 0) {
			return parameters;
		}
		for (String pair : url.substring(query + 1).split("&")) {
			if (pair.isBlank()) {
				continue;
			}
			int equals = pair.indexOf('=');
			String key = (equals < 0) ? pair : pair.substring(0, equals);
			String value = (equals < 0) ? "" : pair.substring(equals + 1);
			parameters.add(Map.entry(keyForm.apply(key), valueForm.apply(value)));
		}
		return parameters;
	}

	/**
	 * Percent-decodes as {@link URLDecoder} does ({@code +} is a space); text that does
	 * not decode is returned as it is.
	 * @param text the text
	 * @return the decoded text
	 */
	public static String decode(String text) {
		try {
			return URLDecoder.decode(text, StandardCharsets.UTF_8);
		}
		catch (IllegalArgumentException ex) {
			return text;
		}
	}

}
