/**
 * The stuck-request watch learning the host and port each request calls, through the
 * JVM's one default proxy selector, which every context that learns them shares.
 */
@NullMarked
package dev.safedefaults.stuckrequests.hosts;

import org.jspecify.annotations.NullMarked;
