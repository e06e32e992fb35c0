package dev.safedefaults.jdbc;

import java.util.List;

import com.zaxxer.hikari.HikariDataSource;
import org.jspecify.annotations.Nullable;

import org.springframework.core.io.support.SpringFactoriesLoader;

/**
 * Which pools one driver's JDBC defaults are for, as the feature's status tells it when
 * the defaults are off ({@code safe-defaults.jdbc.enabled=false}: no
 * {@link HikariDefaultsPostProcessor} then says it). Each driver's sub-package that adds
 * defaults lists its own in {@code META-INF/spring.factories} under this interface's
 * name. An implementation loads without its driver.
 */
public interface DriverDefaults {

	/**
	 * Why this driver's defaults leave a pool alone.
	 * @param pool a pool configured with a JDBC URL
	 * @return {@code null} when they are for this pool, else why not, in a few words
	 */
	@Nullable String leftAloneBecause(HikariDataSource pool);

	/**
	 * Every driver's, as listed in {@code META-INF/spring.factories}.
	 * @return the drivers' defaults
	 */
	static List<DriverDefaults> listed() {
		return SpringFactoriesLoader.forDefaultResourceLocation(DriverDefaults.class.getClassLoader())
			.load(DriverDefaults.class);
	}

}
