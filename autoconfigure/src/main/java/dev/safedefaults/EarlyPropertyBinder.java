package dev.safedefaults;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Reads the keys an environment post-processor needs before the application context (and
 * so any {@code @ConfigurationProperties} bean) exists: bound as Boot binds them
 * ({@link Binder}, relaxed names, Boot's conversion errors), range-checked with
 * {@link PropertyBounds} for the starter's own keys, and clamped, never refused, for a
 * key the starter borrows from Boot. Every post-processor reads its early keys here; each
 * key is declared once, in additional configuration metadata.
 */
public final class EarlyPropertyBinder {

	private final Binder binder;

	private EarlyPropertyBinder(Binder binder) {
		this.binder = binder;
	}

	/**
	 * The binder of an environment.
	 * @param environment the environment, its config data loaded
	 * @return the binder
	 */
	public static EarlyPropertyBinder of(ConfigurableEnvironment environment) {
		return new EarlyPropertyBinder(Binder.get(environment));
	}

	/**
	 * A switch that is on unless set to {@code false}.
	 * @param name the property
	 * @return its value, {@code true} when not set
	 */
	public boolean isOn(String name) {
		return this.binder.bind(name, Boolean.class).orElse(true);
	}

	/**
	 * One of the starter's own durations, refused when out of range.
	 * @param name the property
	 * @param min the shortest allowed
	 * @param max the longest allowed
	 * @param why what the range protects, for the message
	 * @return the value, or {@code null} when not set
	 * @throws org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException
	 * when out of range
	 */
	public @Nullable Duration duration(String name, Duration min, Duration max, String why) {
		Duration value = this.binder.bind(name, Duration.class).orElse(null);
		if (value != null) {
			PropertyBounds.requireRange(name, value, min, max, why);
		}
		return value;
	}

	/**
	 * A duration borrowed from Boot, which Boot has its own rules for: a value Boot
	 * accepts is never refused, only brought into the range the starter can use.
	 * @param name the property
	 * @param min the shortest the starter uses
	 * @param max the longest the starter uses
	 * @return the value and whether it was clamped, or {@code null} when not set
	 */
	public @Nullable Borrowed borrowedDuration(String name, Duration min, Duration max) {
		Duration value = this.binder.bind(name, Duration.class).orElse(null);
		if (value == null) {
			return null;
		}
		Duration used = (value.compareTo(min) < 0) ? min : (value.compareTo(max) > 0) ? max : value;
		return new Borrowed(name, value, used);
	}

	/**
	 * A borrowed value and what the starter uses of it.
	 *
	 * @param name the property
	 * @param value the application's value
	 * @param used the value within the starter's range
	 */
	public record Borrowed(String name, Duration value, Duration used) {

		/**
		 * Whether the starter uses another value than the application's.
		 * @return whether the value was out of the starter's range
		 */
		public boolean clamped() {
			return !this.value.equals(this.used);
		}

	}

}
