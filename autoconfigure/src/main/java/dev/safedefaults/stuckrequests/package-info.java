/**
 * The stuck-request watch (incident 6 for clients the application built itself): servlet
 * requests running longer than {@code safe-defaults.stuck-requests.threshold} are
 * examined once, from their own thread's stack, and what they wait for is a finding while
 * they last.
 */
@NullMarked
package dev.safedefaults.stuckrequests;

import org.jspecify.annotations.NullMarked;
