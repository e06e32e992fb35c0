package dev.safedefaults.jdbc;

import java.util.List;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.check.Finding;

import org.springframework.core.io.support.SpringFactoriesLoader;

/**
 * One driver's part of {@link PoolSettingsCheck}: the traps in a pool's driver settings,
 * read as that driver reads them. Each driver's sub-package lists its own in
 * {@code META-INF/spring.factories} under this interface's name. It reads configuration
 * only, no I/O; an implementation loads without its driver.
 */
public interface DriverSettingsCheck {

	/**
	 * Checks one pool's driver settings.
	 * @param subject how findings name the pool
	 * @param pool the pool, of any driver
	 * @return its findings, empty for a pool of another driver
	 */
	List<Finding> check(String subject, HikariDataSource pool);

	/**
	 * Every driver's, as listed in {@code META-INF/spring.factories}.
	 * @return the drivers' parts
	 */
	static List<DriverSettingsCheck> listed() {
		return SpringFactoriesLoader.forDefaultResourceLocation(DriverSettingsCheck.class.getClassLoader())
			.load(DriverSettingsCheck.class);
	}

}
