package dev.safedefaults.check;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.lang.Contract;

/**
 * The one masking routine for everything safe-defaults prints or exposes: findings,
 * feature statuses, the startup log, the health group, the endpoint.
 * <ul>
 * <li>A URL of a kind a feature contributes a {@link UrlDisplayForm} for (the JDBC
 * feature's {@code jdbc:} URLs) is rendered by construction from what is known to be safe
 * (scheme, hosts, ports, database name); its parameters are one mask. Inside free text,
 * where the end of a URL cannot be known (a password may hold a space), a URL that is not
 * already in its display form takes the rest of the text with it: its scheme stays, the
 * rest is masked.</li>
 * <li>Free text (exception messages) is masked by key: the value of any key that looks
 * secret in any case style ({@code password}, {@code client-secret}, {@code DB_PASSWORD},
 * {@code accessKey}, {@code auth}, {@code passphrase}, {@code jwt}, {@code cookie},
 * {@code key}, {@code sig}…, percent-encoded keys decoded first), up to the next
 * whitespace or the closing quote; {@code Authorization:} and {@code Bearer} tokens;
 * user-info in other URLs.</li>
 * <li>Control characters (CR, LF, tab, every other C0/C1 control, line and paragraph
 * separators, bidirectional overrides) are escaped first, so a text can neither forge a
 * log line nor hide a secret behind a line break.</li>
 * </ul>
 * It errs on the side of masking too much.
 */
public final class SecretMasker {

	/** What a masked value is replaced with. */
	public static final String MASK = "******";

	/** Secret when the key, lower-cased without separators, contains one of these. */
	private static final List<String> SECRET_KEY_PARTS = List.of("password", "passwd", "passphrase", "pwd", "secret",
			"token", "credential", "apikey", "accesskey", "privatekey", "secretkey", "signature", "cookie", "jwt",
			"bearer", "authorization");

	/**
	 * Secret when one of the key's words (camel, kebab, snake, dotted) is one of these.
	 */
	private static final Set<String> SECRET_KEY_WORDS = Set.of("pass", "auth", "key", "sig", "cred", "creds", "pw");

	private static final Pattern KEY_WORD_BOUNDARY = Pattern.compile("(?<=[a-z0-9])(?=[A-Z])|[^A-Za-z0-9]+");

	/** {@code scheme://user-info@}: to the last {@code @} of the token. */
	private static final Pattern USER_INFO = Pattern.compile("(?i)(\\b[a-z][a-z0-9+.\\-]*://)\\S*@");

	/** {@code Authorization: <scheme> <credentials>} and bare {@code Bearer <token>}. */
	private static final Pattern AUTHORIZATION = Pattern
		.compile("(?i)(\\bauthorization\"?\\s*[:=]\\s*\"?)(?:(basic|bearer|digest|negotiate|token)\\s+)?[^\\s\"]+");

	private static final Pattern BEARER = Pattern.compile("(?i)(\\bbearer\\s+)[^\\s\"]+");

	/**
	 * {@code key=}, {@code key: }, {@code "key":"}, {@code (key=}: a key and its
	 * separator. A key starts where its run of key characters starts, so a long run
	 * without a separator (a class name in a stack trace) is scanned once, not once per
	 * character.
	 */
	private static final Pattern KEY = Pattern
		.compile("(?<![A-Za-z0-9_.%\\-])([A-Za-z0-9_.%\\-]++)([\"']?\\s*[=:]\\s*)");

	private static final Pattern NOT_ALPHANUMERIC = Pattern.compile("[^a-z0-9]");

	/**
	 * A value: already masked, quoted (to the closing quote), or up to the next
	 * whitespace.
	 */
	private static final Pattern VALUE = Pattern.compile("\\Q" + MASK + "\\E|\"[^\"]*\"?|'[^']*'?|[^\\s\"']+");

	private static final String TRAILING_PUNCTUATION = "),.;:]'\"";

	/** What opens a word of prose before an {@code @}: see {@link #userInfoMayGoOn}. */
	private static final String PROSE_BEFORE_AT = "([{`'\"";

	private static volatile @Nullable List<UrlDisplayForm> urlDisplayForms;

	private SecretMasker() {
	}

	/**
	 * The display forms the features list in {@code META-INF/spring.factories}, loaded
	 * once.
	 */
	private static List<UrlDisplayForm> urlDisplayForms() {
		List<UrlDisplayForm> forms = urlDisplayForms;
		if (forms == null) {
			forms = List.copyOf(SpringFactoriesLoader.forDefaultResourceLocation(SecretMasker.class.getClassLoader())
				.load(UrlDisplayForm.class));
			urlDisplayForms = forms;
		}
		return forms;
	}

	/**
	 * Makes a text safe to print or expose: control characters escaped, URLs rendered
	 * through their display forms, secrets masked.
	 * @param text the text, may be {@code null}
	 * @return the masked text, {@code null} when {@code text} is
	 */
	@Contract("!null -> !null")
	public static @Nullable String maskText(@Nullable String text) {
		if (text == null || text.isEmpty()) {
			return text;
		}
		String masked = escapeControlCharacters(text);
		for (UrlDisplayForm form : urlDisplayForms()) {
			masked = maskUrls(masked, form);
		}
		masked = AUTHORIZATION.matcher(masked)
			.replaceAll((match) -> Matcher
				.quoteReplacement(match.group(1) + ((match.group(2) != null) ? match.group(2) + " " : "") + MASK));
		masked = BEARER.matcher(masked).replaceAll((match) -> Matcher.quoteReplacement(match.group(1) + MASK));
		masked = USER_INFO.matcher(masked).replaceAll((match) -> Matcher.quoteReplacement(match.group(1) + MASK + "@"));
		return maskSecretValues(masked);
	}

	private static String maskSecretValues(String text) {
		Matcher key = KEY.matcher(text);
		Matcher value = VALUE.matcher(text);
		StringBuilder out = new StringBuilder(text.length());
		int last = 0;
		int from = 0;
		while (key.find(from)) {
			from = key.end();
			if (!isSecretKey(key.group(1))) {
				// Not secret: the value may itself hold a secret pair, so scanning goes
				// on inside it.
				continue;
			}
			value.region(key.end(), text.length());
			if (!value.lookingAt()) {
				continue;
			}
			out.append(text, last, key.end()).append(quoted(value.group()));
			last = value.end();
			from = value.end();
		}
		return out.append(text, last, text.length()).toString();
	}

	private static String maskUrls(String text, UrlDisplayForm form) {
		Matcher matcher = form.urlInText().matcher(text);
		StringBuilder out = new StringBuilder();
		int last = 0;
		while (matcher.find()) {
			String url = inDisplayForm(matcher.group(), form);
			out.append(text, last, matcher.start());
			if (url != null && !userInfoMayGoOn(text, matcher.start() + url.length())) {
				out.append(url);
				last = matcher.start() + url.length();
			}
			else {
				// Where the URL ends is unknown: its scheme stays, the rest of the text
				// goes.
				out.append(form.schemeOnly(matcher.group())).append(MASK);
				return out.toString();
			}
		}
		return out.append(text, last, text.length()).toString();
	}

	/**
	 * Whether the text after a URL token that is already in display form may still be
	 * part of the URL's user information: a password may hold a space, and then the token
	 * ends inside it (the part before the space reads as a host and a port). An {@code @}
	 * later in the text (line breaks escaped by then) may end such user information;
	 * unless it opens a word of prose, as an annotation named in a finding's text does
	 * ({@code (@Transactional(timeout)}, {@code `@Bean`}): after a space, a bracket or a
	 * quote.
	 */
	private static boolean userInfoMayGoOn(String text, int end) {
		for (int i = text.indexOf('@', end); i > end; i = text.indexOf('@', i + 1)) {
			char before = text.charAt(i - 1);
			if (!Character.isWhitespace(before) && PROSE_BEFORE_AT.indexOf(before) < 0) {
				return true;
			}
		}
		return false;
	}

	/**
	 * The URL token, or the token without trailing punctuation of the surrounding prose,
	 * when it is already what its display form renders; {@code null} otherwise.
	 */
	private static @Nullable String inDisplayForm(String token, UrlDisplayForm form) {
		String url = token;
		for (int stripped = 0; stripped <= 3 && !url.isEmpty(); stripped++) {
			if (form.render(url).equals(url)) {
				return url;
			}
			if (TRAILING_PUNCTUATION.indexOf(url.charAt(url.length() - 1)) < 0) {
				return null;
			}
			url = url.substring(0, url.length() - 1);
		}
		return null;
	}

	private static String quoted(String value) {
		if (value.startsWith("\"")) {
			return "\"" + MASK + "\"";
		}
		if (value.startsWith("'")) {
			return "'" + MASK + "'";
		}
		return MASK;
	}

	/**
	 * Escapes what could break a log line or hide text: CR, LF and tab as {@code \r},
	 * {@code \n}, {@code \t}; every other control character, line and paragraph separator
	 * and bidirectional formatting character as {@code \}{@code uXXXX}.
	 * @param text the text, may be {@code null}
	 * @return the escaped text
	 */
	@Contract("!null -> !null")
	public static @Nullable String escapeControlCharacters(@Nullable String text) {
		if (text == null) {
			return null;
		}
		StringBuilder out = null;
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			String escaped = escape(c);
			if (escaped != null && out == null) {
				out = new StringBuilder(text.length() + 16).append(text, 0, i);
			}
			if (out != null) {
				if (escaped != null) {
					out.append(escaped);
				}
				else {
					out.append(c);
				}
			}
		}
		return (out != null) ? out.toString() : text;
	}

	private static @Nullable String escape(char c) {
		switch (c) {
			case '\r':
				return "\\r";
			case '\n':
				return "\\n";
			case '\t':
				return "\\t";
			default:
				int type = Character.getType(c);
				boolean bidi = (c >= '\u202A' && c <= '\u202E') || (c >= '\u2066' && c <= '\u2069') || c == '\u200E'
						|| c == '\u200F' || c == '\u061C';
				if (type == Character.CONTROL || type == Character.LINE_SEPARATOR
						|| type == Character.PARAGRAPH_SEPARATOR || bidi) {
					return String.format(Locale.ROOT, "\\u%04x", (int) c);
				}
				return null;
		}
	}

	/**
	 * Renders a URL for display through the {@link UrlDisplayForm} of its kind.
	 * @param url the URL, may be {@code null}
	 * @return the URL safe to print; {@value #MASK} when no display form knows its kind;
	 * {@code null} when {@code url} is
	 */
	@Contract("!null -> !null")
	public static @Nullable String maskUrl(@Nullable String url) {
		if (url == null) {
			return null;
		}
		UrlDisplayForm form = displayFormOf(url.strip());
		return (form != null) ? escapeControlCharacters(form.render(url)) : MASK;
	}

	private static @Nullable UrlDisplayForm displayFormOf(String value) {
		for (UrlDisplayForm form : urlDisplayForms()) {
			if (form.isUrl(value)) {
				return form;
			}
		}
		return null;
	}

	/**
	 * Masks a property's value when its key looks secret; renders a URL a
	 * {@link UrlDisplayForm} knows for display; otherwise masks the secrets inside the
	 * value.
	 * @param key the property key
	 * @param value the value, may be {@code null}
	 * @return the value safe to print
	 */
	public static @Nullable String maskProperty(String key, @Nullable Object value) {
		if (value == null) {
			return null;
		}
		if (isSecretKey(key)) {
			return MASK;
		}
		String text = String.valueOf(value);
		UrlDisplayForm form = displayFormOf(text);
		return (form != null) ? escapeControlCharacters(form.render(text)) : maskText(text);
	}

	/**
	 * Whether a property key looks like it holds a secret, in any case style and after
	 * percent-decoding ({@code pass%77ord} is {@code password}).
	 * @param key the key
	 * @return {@code true} for keys such as {@code password}, {@code trustStorePassword},
	 * {@code client-secret}, {@code DB_PASSWORD}, {@code api.token}, {@code accessKey},
	 * {@code auth}, {@code sig}
	 */
	public static boolean isSecretKey(@Nullable String key) {
		if (key == null || key.isBlank()) {
			return false;
		}
		String decoded = key;
		if (key.indexOf('%') >= 0) {
			try {
				decoded = URLDecoder.decode(key, StandardCharsets.UTF_8);
			}
			catch (IllegalArgumentException ex) {
				return true;
			}
		}
		String compact = NOT_ALPHANUMERIC.matcher(decoded.toLowerCase(Locale.ROOT)).replaceAll("");
		for (String part : SECRET_KEY_PARTS) {
			if (compact.contains(part)) {
				return true;
			}
		}
		for (String word : KEY_WORD_BOUNDARY.split(decoded)) {
			if (SECRET_KEY_WORDS.contains(word.toLowerCase(Locale.ROOT))) {
				return true;
			}
		}
		return false;
	}

}
