/**
 * The JDBC feature on MySQL Connector/J and MariaDB Connector/J (incident 5): what each
 * driver reads and how (URL and data-source properties, case, {@code useConfigs} bundles,
 * its own defaults and property names), the defaults added to their pools, the checks of
 * their settings, the server's {@code wait_timeout} and prepared-statement budget, and
 * Hibernate's auto-commit round trips on them.
 */
@NullMarked
package dev.safedefaults.jdbc.mysql;

import org.jspecify.annotations.NullMarked;
