package dev.safedefaults;

import java.time.Duration;
import java.util.Collection;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.util.unit.DataSize;
import org.springframework.util.unit.DataUnit;

/**
 * The range check every {@code safe-defaults} properties class runs on itself from
 * {@code afterPropertiesSet()} (as Boot's {@code DataSourceProperties} does): a value out
 * of range fails startup naming the property, the value and what is allowed. Every
 * duration and size has an upper bound, so that no arithmetic on a user's value can
 * overflow.
 */
public final class PropertyBounds {

	/** The longest interval any property accepts. */
	public static final Duration MAX_INTERVAL = Duration.ofDays(1);

	/** The longest timeout any property accepts. */
	public static final Duration MAX_TIMEOUT = Duration.ofMinutes(10);

	private PropertyBounds() {
	}

	/**
	 * Requires a whole number in a range.
	 * @param name the property
	 * @param value its value
	 * @param min the smallest allowed
	 * @param max the largest allowed
	 * @param why what the range protects, for the message
	 * @throws InvalidConfigurationPropertyValueException when out of range
	 */
	public static void requireRange(String name, long value, long min, long max, String why) {
		if (value < min || value > max) {
			throw new InvalidConfigurationPropertyValueException(name, value,
					"Must be from " + min + " to " + max + " (" + why + ")");
		}
	}

	/**
	 * Requires a finite number in a range.
	 * @param name the property
	 * @param value its value
	 * @param min the smallest allowed, exclusive when {@code minExclusive}
	 * @param minExclusive whether {@code min} itself is refused
	 * @param max the largest allowed
	 * @param why what the range protects, for the message
	 * @throws InvalidConfigurationPropertyValueException when out of range or not a
	 * number
	 */
	public static void requireRange(String name, double value, double min, boolean minExclusive, double max,
			String why) {
		boolean aboveMin = minExclusive ? value > min : value >= min;
		if (!aboveMin || !(value <= max)) {
			throw new InvalidConfigurationPropertyValueException(name, value,
					"Must be " + (minExclusive ? "above " : "from ") + format(min)
							+ (minExclusive ? " and at most " : " to ") + format(max) + " (" + why + ")");
		}
	}

	/**
	 * Requires a duration in a range.
	 * @param name the property
	 * @param value its value, {@code null} is refused
	 * @param min the shortest allowed
	 * @param max the longest allowed
	 * @param why what the range protects, for the message
	 * @throws InvalidConfigurationPropertyValueException when out of range or not set
	 */
	public static void requireRange(String name, @Nullable Duration value, Duration min, Duration max, String why) {
		if (value == null || value.compareTo(min) < 0 || value.compareTo(max) > 0) {
			throw new InvalidConfigurationPropertyValueException(name, (value != null) ? shortForm(value) : null,
					"Must be from " + shortForm(min) + " to " + shortForm(max) + " (" + why + ")");
		}
	}

	/**
	 * Requires a data size in a range.
	 * @param name the property
	 * @param value its value, {@code null} is refused
	 * @param min the smallest allowed
	 * @param max the largest allowed
	 * @param why what the range protects, for the message
	 * @throws InvalidConfigurationPropertyValueException when out of range or not set
	 */
	public static void requireRange(String name, @Nullable DataSize value, DataSize min, DataSize max, String why) {
		if (value == null || value.compareTo(min) < 0 || value.compareTo(max) > 0) {
			throw new InvalidConfigurationPropertyValueException(name, (value != null) ? shortForm(value) : null,
					"Must be from " + shortForm(min) + " to " + shortForm(max) + " (" + why + ")");
		}
	}

	/**
	 * Requires one of a set of known values.
	 * @param name the property
	 * @param value its value
	 * @param allowed the values allowed
	 * @param what what a value is, for the message
	 * @param where where the allowed values are listed, for the message
	 * @throws InvalidConfigurationPropertyValueException when the value is not allowed
	 */
	public static void requireOneOf(String name, String value, Collection<String> allowed, String what, String where) {
		if (!allowed.contains(value)) {
			throw new InvalidConfigurationPropertyValueException(name, value,
					"'" + value + "' is not " + what + ". Allowed: " + String.join(", ", allowed) + " (" + where + ")");
		}
	}

	private static String shortForm(Duration duration) {
		if (duration.isZero()) {
			return "0s";
		}
		if (duration.getNano() % 1_000_000 != 0) {
			return duration.toString().substring(2).toLowerCase(Locale.ROOT);
		}
		String[] names = { "d", "h", "m", "s" };
		if (duration.getNano() == 0) {
			// In seconds: the largest durations (106751991168d) overflow a long of
			// millis.
			long seconds = duration.getSeconds();
			long[] units = { 86_400, 3_600, 60, 1 };
			for (int i = 0; i < units.length; i++) {
				if (seconds % units[i] == 0) {
					return (seconds / units[i]) + names[i];
				}
			}
		}
		long millis;
		try {
			millis = Math.addExact(Math.multiplyExact(duration.getSeconds(), 1000), duration.getNano() / 1_000_000);
		}
		catch (ArithmeticException ex) {
			return duration.toString().substring(2).toLowerCase(Locale.ROOT);
		}
		long[] units = { 86_400_000, 3_600_000, 60_000, 1000 };
		for (int i = 0; i < units.length; i++) {
			if (millis % units[i] == 0) {
				return (millis / units[i]) + names[i];
			}
		}
		return millis + "ms";
	}

	/**
	 * A size as a user writes it, in the largest of Boot's units that holds it exactly
	 * ({@code 1GB}, {@code 1536KB}, {@code 1B}): {@link DataSize#toString()} gives bytes
	 * ({@code 1073741824B}), which is not what docs/properties.md, the metadata or the
	 * user wrote.
	 */
	private static String shortForm(DataSize size) {
		long bytes = size.toBytes();
		if (bytes == 0) {
			return "0B";
		}
		DataUnit[] units = { DataUnit.TERABYTES, DataUnit.GIGABYTES, DataUnit.MEGABYTES, DataUnit.KILOBYTES };
		String[] names = { "TB", "GB", "MB", "KB" };
		for (int i = 0; i < units.length; i++) {
			long unit = DataSize.of(1, units[i]).toBytes();
			if (bytes % unit == 0) {
				return (bytes / unit) + names[i];
			}
		}
		return bytes + "B";
	}

	private static String format(double value) {
		return (value == Math.rint(value) && Math.abs(value) < 1e15) ? String.valueOf((long) value)
				: String.valueOf(value);
	}

}
