package dev.safedefaults.check;

import java.util.regex.Pattern;

/**
 * How the URLs of one kind are shown, contributed by the feature that knows their syntax
 * (the JDBC feature for {@code jdbc:} URLs) and listed in
 * {@code META-INF/spring.factories} under this interface's name. {@link SecretMasker}
 * applies every contribution to whole values and inside free text without knowing any URL
 * syntax itself.
 * <p>
 * A contribution renders from what it parses, never by deleting what looks secret:
 * whatever it does not parse completely it shows as its scheme at most.
 */
public interface UrlDisplayForm {

	/**
	 * Where a URL of this kind stands in free text: the pattern matches from its scheme
	 * to the next whitespace (the URL's true end cannot be known: a password may hold a
	 * space).
	 * @return the pattern
	 */
	Pattern urlInText();

	/**
	 * Whether a value is meant as a URL of this kind (it starts with the kind's prefix).
	 * @param value the value, as given
	 * @return {@code true} when {@link #render} is the way to show it
	 */
	boolean isUrl(String value);

	/**
	 * The URL as it may be shown.
	 * @param url a value for which {@link #isUrl} holds, or a token {@link #urlInText}
	 * found
	 * @return the URL rendered from what was parsed; its scheme only, or
	 * {@value SecretMasker#MASK}, when it does not parse
	 */
	String render(String url);

	/**
	 * What a URL whose end is unknown is shown as, followed by
	 * {@value SecretMasker#MASK}.
	 * @param url a token {@link #urlInText} found
	 * @return its scheme, or {@value SecretMasker#MASK}
	 */
	String schemeOnly(String url);

}
