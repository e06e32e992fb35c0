package dev.safedefaults.sample.rules;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import org.springframework.stereotype.Component;

/**
 * Holds the configuration text, as a config-center client would: one {@code String}
 * instance until the configuration changes (~2 KB, 20 rules).
 */
@Component
public class RulesText {

	private final String json;

	RulesText() {
		try (InputStream in = RulesText.class.getResourceAsStream("/pricing-rules.json")) {
			this.json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * The current text.
	 * @return the JSON text
	 */
	public String json() {
		return this.json;
	}

}
