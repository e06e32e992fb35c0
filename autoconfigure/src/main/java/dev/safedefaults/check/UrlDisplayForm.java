package dev.safedefaults.check;

import java.util.regex.Pattern;

/**
 * How the URLs of one kind are shown, contributed by the feature that knows their syntax
 * (the JDBC feature for {@code jdbc:} URLs) and listed in
 * {@code META-INF/spring.factories} under this interface's name. {@link SecretMasker}
 * applies every contribution to whole values and inside free text without knowing any URL
 * syntax itself.
 * <p>
 * A contribution renders from what is known to be safe (for a JDBC URL: its scheme,
 * hosts, ports and database name), never by deleting what looks secret: everything else
 * is one {@value SecretMasker#MASK} or left out, and a URL of no shape it knows is shown
 * as its scheme at most. Rendering is a fixed point, so a rendered URL inside a text is
 * recognised and kept.
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
	 * @return the URL rendered from its safe parts; its scheme only, or
	 * {@value SecretMasker#MASK}, when it has no shape the contribution knows
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
