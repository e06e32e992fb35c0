package dev.safedefaults.check;

import java.util.Objects;

/**
 * One thing safe-defaults noticed about the application.
 *
 * @param id stable, dotted, lower-case id from the {@link FindingCatalogue} (public API)
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
	 * Creates a warning.
	 * @param id the finding id
	 * @param subject what it is about
	 * @param message what is wrong and what it costs
	 * @param fix what to change
	 * @return the finding
	 */
	public static Finding warning(String id, String subject, String message, String fix) {
		return new Finding(id, Severity.WARNING, subject, message, fix);
	}

	/**
	 * Creates an informational finding.
	 * @param id the finding id
	 * @param subject what it is about
	 * @param message what is worth knowing
	 * @param fix what to change
	 * @return the finding
	 */
	public static Finding info(String id, String subject, String message, String fix) {
		return new Finding(id, Severity.INFO, subject, message, fix);
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
