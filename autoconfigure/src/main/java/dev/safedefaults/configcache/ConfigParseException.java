package dev.safedefaults.configcache;

import java.lang.reflect.Type;

import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.core.exc.UnexpectedEndOfInputException;
import tools.jackson.databind.exc.InvalidDefinitionException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;
import tools.jackson.databind.exc.ValueInstantiationException;

/**
 * Thrown by {@link ParsedConfigCache} when a configuration text cannot be parsed into its
 * target type: malformed JSON or a value that does not fit the type. The message names
 * the target type, the kind of problem and the line and column where the parser stopped.
 * <p>
 * It holds no part of the text: not in its message, and not through a cause, since
 * Jackson's messages quote the offending tokens and configuration may hold secrets. The
 * parser's exception is therefore not chained; only its location and class name are
 * copied. Nothing is cached for a text that failed: the next call parses it again.
 */
public class ConfigParseException extends RuntimeException {

	private final String targetType;

	private final int line;

	private final int column;

	ConfigParseException(String targetType, int length, String problem, int line, int column) {
		this(message(targetType, length, problem, line, column), targetType, line, column);
	}

	private ConfigParseException(String message, String targetType, int line, int column) {
		// An explicit null cause: the cause is then initialised, so nobody can attach the
		// parser's exception (and the text it quotes) later with initCause.
		super(message, null);
		this.targetType = targetType;
		this.line = line;
		this.column = column;
	}

	/**
	 * A text longer than the cache takes.
	 * @param type the target type
	 * @param length the text's length
	 * @param maxLength the limit
	 * @param property the property that sets the limit
	 * @return the exception to throw
	 */
	static ConfigParseException tooLong(Type type, int length, int maxLength, String property) {
		return new ConfigParseException("Cannot parse a configuration text (" + length + " characters) into "
				+ type.getTypeName() + ": it is longer than " + maxLength + " characters, the most " + property
				+ " allows for one text. Nothing was parsed or cached.", type.getTypeName(), -1, -1);
	}

	/**
	 * A text nested deeper than the cache takes.
	 * @param type the target type
	 * @param length the text's length
	 * @param maxDepth the limit
	 * @param property the property that sets the limit
	 * @param line where the limit was passed
	 * @param column where the limit was passed
	 * @return the exception to throw
	 */
	static ConfigParseException tooDeep(Type type, int length, int maxDepth, String property, int line, int column) {
		return new ConfigParseException(
				"Cannot parse a configuration text (" + length + " characters) into " + type.getTypeName()
						+ ": it nests objects and arrays deeper than " + maxDepth + " levels, the most " + property
						+ " allows, at line " + line + ", column " + column + ". Nothing was parsed or cached.",
				type.getTypeName(), line, column);
	}

	/**
	 * Describes a parser failure without any part of the text it read.
	 * @param type the target type
	 * @param text the text that failed; only its length is used
	 * @param failure what the parser (or the type's constructor) threw
	 * @return the exception to throw instead
	 */
	static ConfigParseException of(Type type, String text, RuntimeException failure) {
		TokenStreamLocation location = (failure instanceof JacksonException jackson) ? jackson.getLocation() : null;
		int line = (location != null) ? location.getLineNr() : -1;
		int column = (location != null) ? location.getColumnNr() : -1;
		String problem = text.isBlank() ? "an empty text" : problem(failure);
		return new ConfigParseException(type.getTypeName(), text.length(), problem, line, column);
	}

	private static String problem(RuntimeException failure) {
		String kind;
		if (failure instanceof UnrecognizedPropertyException) {
			kind = "a property the type does not have";
		}
		else if (failure instanceof ValueInstantiationException) {
			kind = "a value the type's constructor or factory rejected";
		}
		else if (failure instanceof InvalidDefinitionException) {
			kind = "a type Jackson cannot build (check its constructors and annotations)";
		}
		else if (failure instanceof MismatchedInputException) {
			kind = "a value that does not match the type";
		}
		else if (failure instanceof InputCoercionException) {
			kind = "a number out of range for its type";
		}
		else if (failure instanceof StreamConstraintsException) {
			kind = "input beyond the parser's limits (size or nesting)";
		}
		else if (failure instanceof UnexpectedEndOfInputException) {
			kind = "JSON that ends too early";
		}
		else if (failure instanceof StreamReadException) {
			kind = "malformed JSON";
		}
		else if (failure instanceof JacksonException) {
			kind = "a value that does not match the type";
		}
		else {
			kind = "a failure while building the value";
		}
		// The class name is safe to show: it is never derived from the text.
		return kind + " (" + failure.getClass().getSimpleName() + ")";
	}

	private static String message(String targetType, int length, String problem, int line, int column) {
		String where = (line > 0) ? "at line " + line + ((column > 0) ? ", column " + column : "")
				: "at an unknown position";
		return "Cannot parse a configuration text (" + length + " characters) into " + targetType + ": " + problem + " "
				+ where + ". The text is not shown because configuration may hold secrets; "
				+ "parse a copy with the JsonMapper to see the parser's own message.";
	}

	/**
	 * Returns the target type, as {@link Type#getTypeName()} spells it.
	 * @return the type's name, for example {@code java.util.List<com.example.Flag>}
	 */
	public String getTargetType() {
		return this.targetType;
	}

	/**
	 * Returns the line where the parser stopped, counting from 1.
	 * @return the line, or -1 when the parser did not report one
	 */
	public int getLine() {
		return this.line;
	}

	/**
	 * Returns the column where the parser stopped, counting from 1.
	 * @return the column, or -1 when the parser did not report one
	 */
	public int getColumn() {
		return this.column;
	}

}
