package dev.safedefaults.jdbc;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

/**
 * What safe-defaults did to one Hikari pool: the settings it added, the keys it left to
 * the user, or why it left the pool alone. Holds no secret: the URL is masked.
 *
 * @param beanName the pool's bean name
 * @param poolName the pool's current name (Hikari names an unnamed pool when it starts)
 * @param maskedUrl the pool's URL, masked, or {@code null}
 * @param driver the driver's name, or {@code null} when the pool was left alone
 * @param added the settings added, in order
 * @param keptUserKeys the keys the user had set, left as they are
 * @param leftAloneBecause why the pool was left alone, or {@code null} when defaults were
 * applied
 */
public record PoolDefaultsReport(String beanName, Supplier<@Nullable String> poolName, @Nullable String maskedUrl,
		@Nullable String driver, Map<String, String> added, List<String> keptUserKeys,
		@Nullable String leftAloneBecause) {

	/**
	 * A pool to which the defaults were added.
	 * @param beanName the pool's bean name
	 * @param poolName the pool's current name
	 * @param maskedUrl its URL, masked
	 * @param driver the driver's name
	 * @param added the settings added, in order
	 * @param keptUserKeys the keys the user had set, left as they are
	 * @return the report
	 */
	public static PoolDefaultsReport applied(String beanName, Supplier<String> poolName, String maskedUrl,
			String driver, Map<String, String> added, List<String> keptUserKeys) {
		return new PoolDefaultsReport(beanName, poolName, maskedUrl, driver,
				Collections.unmodifiableMap(new LinkedHashMap<>(added)), List.copyOf(keptUserKeys), null);
	}

	/**
	 * A pool left alone.
	 * @param beanName the pool's bean name
	 * @param poolName the pool's current name
	 * @param maskedUrl its URL, masked, or {@code null}
	 * @param reason why, in a few words
	 * @return the report
	 */
	public static PoolDefaultsReport leftAlone(String beanName, Supplier<String> poolName, @Nullable String maskedUrl,
			String reason) {
		return new PoolDefaultsReport(beanName, poolName, maskedUrl, null, Map.of(), List.of(), reason);
	}

	boolean isApplied() {
		return this.leftAloneBecause == null;
	}

	/**
	 * The pool as findings name it: its pool name, else its bean name.
	 * @return the name
	 */
	String subject() {
		String name = this.poolName.get();
		return (name != null && !name.isBlank()) ? name : this.beanName;
	}

	/**
	 * The pool in the startup line: its name when the defaults were applied, else its
	 * name, {@code left alone} and why, in a few words.
	 * @return the short form
	 */
	String shortForm() {
		return isApplied() ? subject() : subject() + ": left alone, " + this.leftAloneBecause;
	}

	/**
	 * One line for the {@code safedefaults} endpoint.
	 * @return the description
	 */
	String describe() {
		StringBuilder line = new StringBuilder(subject());
		if (this.maskedUrl != null) {
			line.append(" (")
				.append((this.driver != null) ? this.driver + ", " : "")
				.append(this.maskedUrl)
				.append(')');
		}
		if (!isApplied()) {
			return line.append(": left alone, ").append(this.leftAloneBecause).toString();
		}
		line.append(": ");
		line.append(this.added.isEmpty() ? "nothing added"
				: "added " + this.added.entrySet()
					.stream()
					.map((entry) -> entry.getKey() + "=" + entry.getValue())
					.collect(Collectors.joining(", ")));
		if (!this.keptUserKeys.isEmpty()) {
			line.append("; kept your ").append(String.join(", ", this.keptUserKeys));
		}
		return line.toString();
	}

}
