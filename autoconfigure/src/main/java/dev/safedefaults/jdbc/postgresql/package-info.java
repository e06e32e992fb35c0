/**
 * The JDBC feature on pgjdbc (issue 23): what a PostgreSQL pool's own session says (its
 * timeouts, its route through a connection pooler such as PgBouncer), the checks of them,
 * the count of prepared-statement errors at run time, and Hibernate batches pgjdbc does
 * not rewrite. It changes no pool.
 */
@NullMarked
package dev.safedefaults.jdbc.postgresql;

import org.jspecify.annotations.NullMarked;
