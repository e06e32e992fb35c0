package dev.safedefaults.check;

import java.util.Objects;

/**
 * One thing safe-defaults noticed about the application. Built by
 * {@link FindingType#raise(String, Object...)} from the feature's declaration, never by
 * hand.
 *
 * @param id stable, dotted, lower-case id of its {@link FindingType} (public API)
 * @param severity how much it matters
 * @param subject what it is about: a client, a logger, a pool, a bean
 * @param message what is wrong and what it costs, in one sentence
 * @param fix what to change, or how to silence it
 */
public record Finding(String id, Severity severity, String subject, String message, String fix) {

	public Finding {
		Objects.requireNonNull(id, "id");
		Objects.requireNonNull(severity, "severity");
		Objects.requireNonNull(subject, "subject");
		Objects.requireNonNull(message, "message");
		Objects.requireNonNull(fix, "fix");
	}

	/**
	 * Returns this finding with every secret in its texts masked.
	 * @return the masked finding
	 */
	Finding masked() {
		return new Finding(this.id, this.severity, SecretMasker.maskText(this.subject),
				SecretMasker.maskText(this.message), SecretMasker.maskText(this.fix));
	}

	/**
	 * The finding as one log line: {@code id subject: message — fix}.
	 * @return the log line
	 */
	public String toLogLine() {
		return this.id + " " + this.subject + ": " + this.message + " — " + this.fix;
	}

}
