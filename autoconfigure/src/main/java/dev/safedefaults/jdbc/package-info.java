/**
 * JDBC defaults for MySQL-protocol Hikari pools (incident 5), the driver knowledge they
 * rest on, the pool checks, and {@link dev.safedefaults.jdbc.JdbcFindings}.
 */
@NullMarked
package dev.safedefaults.jdbc;

import org.jspecify.annotations.NullMarked;
