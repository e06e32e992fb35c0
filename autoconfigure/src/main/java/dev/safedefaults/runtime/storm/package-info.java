/**
 * How exception storms and {@code System.err} stack-trace storms are judged and reported
 * (incidents 1, 3 and 8): the detector and its auto-configuration
 * ({@link dev.safedefaults.runtime.storm.RuntimeStormDetector},
 * {@link dev.safedefaults.runtime.storm.RuntimeStormAutoConfiguration}), the properties,
 * the thresholds per second and per request, each storm a finding while it lasts
 * ({@link dev.safedefaults.runtime.storm.RuntimeFindings}), and the feature's status. It
 * reads what the feature's root sees; its metrics are in {@code actuate}.
 */
@NullMarked
package dev.safedefaults.runtime.storm;

import org.jspecify.annotations.NullMarked;
