/**
 * What more than one feature needs to know, written once below the features: which
 * library a stack frame belongs to and what it means ({@link LibraryFrames}, so the
 * application's first frame is found one way for every feature), and which Hikari pool a
 * {@code DataSource} is ({@link HikariPools}, on Boot's {@code DataSourceUnwrapper}).
 * Every feature may read this package; it reads no feature.
 */
@NullMarked
package dev.safedefaults.support;

import org.jspecify.annotations.NullMarked;
