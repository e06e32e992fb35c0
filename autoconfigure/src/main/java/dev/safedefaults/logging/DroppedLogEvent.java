package dev.safedefaults.logging;

import java.time.Instant;

import dev.safedefaults.check.SecretMasker;
import org.jspecify.annotations.Nullable;

/**
 * A WARN or ERROR event that a stalled log output could not take (issue 49), as the
 * starter shows it: at the endpoint and in the line that summarises a stall. The message
 * goes through the same masking as the starter's rendered stack traces
 * ({@link SecretMasker#maskText}) and is cut at {@value #MAX_MESSAGE} characters.
 *
 * @param time when it was dropped
 * @param level {@code WARN} or {@code ERROR} ({@code FATAL} counts as ERROR)
 * @param thread the logging thread's name
 * @param source the logger's name, or where the event was logged when the logging system
 * does not say which logger (Log4j's queue-full policy is handed only the level)
 * @param message the message, masked and cut, after a dash, the throwable's class and
 * masked message when there was one; {@value #NOT_CAPTURED} where the logging system did
 * not hand it over
 */
public record DroppedLogEvent(Instant time, String level, String thread, String source, String message) {

	/** The longest message kept, in characters. */
	public static final int MAX_MESSAGE = 300;

	/** What stands for a message the logging system did not hand over. */
	public static final String NOT_CAPTURED = "(message not captured)";

	/**
	 * An event dropped now, on the calling thread.
	 * @param severe true for ERROR or FATAL, false for WARN
	 * @param source the logger's name, or where the event was logged
	 * @param message the formatted message, if known
	 * @param thrownClass the class of the event's throwable, if any
	 * @param thrownMessage the throwable's message, if any
	 * @return the event, masked
	 */
	public static DroppedLogEvent now(boolean severe, String source, @Nullable String message,
			@Nullable String thrownClass, @Nullable String thrownMessage) {
		StringBuilder text = new StringBuilder((message != null) ? message : NOT_CAPTURED);
		if (thrownClass != null) {
			text.append(" — ").append(thrownClass);
			if (thrownMessage != null) {
				text.append(": ").append(thrownMessage);
			}
		}
		String masked = SecretMasker.maskText(text.toString());
		if (masked != null && masked.length() > MAX_MESSAGE) {
			masked = masked.substring(0, MAX_MESSAGE) + "…";
		}
		return new DroppedLogEvent(Instant.now(), severe ? "ERROR" : "WARN", Thread.currentThread().getName(), source,
				(masked != null) ? masked : NOT_CAPTURED);
	}

	/**
	 * One line: {@code 2026-12-07T04:01:02.123Z WARN [thread] source - message}.
	 * @return the line
	 */
	public String line() {
		return this.time + " " + this.level + " [" + this.thread + "] " + this.source + " - " + this.message;
	}

}
