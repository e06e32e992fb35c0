package dev.safedefaults.jdbc;

import java.util.regex.Pattern;

import dev.safedefaults.check.UrlDisplayForm;

/**
 * How {@code jdbc:} URLs are shown wherever safe-defaults prints or exposes one
 * (findings, statuses, the endpoint, free text such as exception messages): rendered by
 * {@link JdbcUrlForDisplay}. Listed in {@code META-INF/spring.factories}, so that the
 * masking in {@code check} knows no JDBC syntax.
 */
public final class JdbcUrlDisplayForm implements UrlDisplayForm {

	/** A {@code jdbc:} URL inside text. */
	private static final Pattern JDBC_URL = Pattern.compile("(?i)(?<![A-Za-z0-9])jdbc:[a-z][a-z0-9+.\\-]*:\\S*");

	@Override
	public Pattern urlInText() {
		return JDBC_URL;
	}

	@Override
	public boolean isUrl(String value) {
		return value.regionMatches(true, 0, "jdbc:", 0, 5);
	}

	@Override
	public String render(String url) {
		String rendered = JdbcUrlForDisplay.render(url);
		return (rendered != null) ? rendered : "";
	}

	@Override
	public String schemeOnly(String url) {
		return JdbcUrlForDisplay.schemeOnly(url);
	}

}
