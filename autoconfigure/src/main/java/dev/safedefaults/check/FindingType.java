package dev.safedefaults.check;

import java.util.Objects;

/**
 * The one declaration of a finding: its id, its severity, the title the findings
 * catalogue documents, and the message and fix it is raised with. A feature declares its
 * types in one class of its own package (for example {@code JdbcFindings}) and builds
 * every {@link Finding} from them with {@link #raise(String, Object...)}, so that an id,
 * a severity and a fix text are written once.
 * <p>
 * When the same trap can arise in different ways (a setting of the user's, the starter
 * switched off, a driver's default), each way is declared as a {@link #because variant}
 * next to the type: the same id, severity and title, with a message and fix that are true
 * for that way.
 *
 * @param id stable, dotted, lower-case id (public API:
 * {@code safe-defaults.checks.disabled} takes it, the catalogue in docs/findings.md
 * documents it)
 * @param severity the one severity it is raised with
 * @param title what it means, as the findings catalogue documents it
 * @param message the message template ({@link String#formatted} placeholders, filled by
 * {@link #raise}'s arguments)
 * @param fix the fix template, filled with the same arguments
 */
public record FindingType(String id, Severity severity, String title, String message, String fix) {

	public FindingType {
		Objects.requireNonNull(id, "id");
		Objects.requireNonNull(severity, "severity");
		Objects.requireNonNull(title, "title");
		Objects.requireNonNull(message, "message");
		Objects.requireNonNull(fix, "fix");
		if (!id.matches("[a-z0-9]+(-[a-z0-9]+)*(\\.[a-z0-9]+(-[a-z0-9]+)*)+")) {
			throw new IllegalArgumentException("Finding id '" + id + "' is not dotted lower-case");
		}
	}

	/**
	 * Declares a finding.
	 * @param id its id
	 * @param severity its severity
	 * @param title what it means, for the catalogue
	 * @param message its message template
	 * @param fix its fix template
	 * @return the type
	 */
	public static FindingType declare(String id, Severity severity, String title, String message, String fix) {
		return new FindingType(id, severity, title, message, fix);
	}

	/**
	 * The same finding arisen another way: same id, severity and title, with a message
	 * and fix that are true for that way.
	 * @param message the message template for that way
	 * @param fix the fix template for that way
	 * @return the variant
	 */
	public FindingType because(String message, String fix) {
		return new FindingType(this.id, this.severity, this.title, message, fix);
	}

	/**
	 * Raises this finding about one subject.
	 * @param subject what it is about: a client, a logger, a pool, a bean
	 * @param args the values the message and fix templates refer to
	 * @return the finding
	 */
	public Finding raise(String subject, Object... args) {
		return new Finding(this.id, this.severity, subject, this.message.formatted(args), this.fix.formatted(args));
	}

}
