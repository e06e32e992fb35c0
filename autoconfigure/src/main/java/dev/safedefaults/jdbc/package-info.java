/**
 * The JDBC feature (incident 5; issues 18, 23, 25 and 34), what every driver shares: the
 * properties ({@link dev.safedefaults.jdbc.JdbcDefaultsProperties}), the discovery of
 * Hibernate on the application's Hikari pools (found through
 * {@link dev.safedefaults.support.HikariPools}, shared with the stuck-request watch)
 * ({@link dev.safedefaults.jdbc.HibernateOnHikari}), the skeleton of the post-processor
 * that adds a driver's defaults
 * ({@link dev.safedefaults.jdbc.HikariDefaultsPostProcessor}) and the feature's status,
 * the one reading of each pool's session and the skeleton of the checks that use it
 * ({@link dev.safedefaults.jdbc.PoolServerVariables},
 * {@link dev.safedefaults.jdbc.DeferredPoolSessionCheck}), the checks every pool gets
 * ({@link dev.safedefaults.jdbc.PoolSettingsCheck},
 * {@link dev.safedefaults.jdbc.MaxLifetimeCheck}), the findings every driver shares
 * ({@link dev.safedefaults.jdbc.JdbcFindings}) and how a JDBC URL is shown. What a driver
 * adds to them it lists in {@code META-INF/spring.factories}
 * ({@link dev.safedefaults.jdbc.DriverSettingsCheck},
 * {@link dev.safedefaults.jdbc.SessionIdleTimeout},
 * {@link dev.safedefaults.jdbc.DriverDefaults}). Each driver is a sub-package that
 * imports this one, never the other: {@code mysql} and {@code postgresql}.
 */
@NullMarked
package dev.safedefaults.jdbc;

import org.jspecify.annotations.NullMarked;
