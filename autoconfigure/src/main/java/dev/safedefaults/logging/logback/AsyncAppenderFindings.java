package dev.safedefaults.logging.logback;

import java.util.List;

import dev.safedefaults.check.FindingDeclarations;
import dev.safedefaults.check.FindingType;

import static dev.safedefaults.check.Severity.WARNING;

/**
 * The findings about an application's own Logback {@code AsyncAppender} (incidents 2 and
 * 3), declared once. The starter checks such an appender and never wraps it a second
 * time; what these say was read in Logback 1.5's {@code AsyncAppenderBase} and
 * {@code AsyncAppender}: only TRACE, DEBUG and INFO are ever discarded by the
 * {@code discardingThreshold}, and then only once fewer than that many slots are free (by
 * default {@code queueSize / 5}); with {@code neverBlock=true} a full queue drops
 * whatever is offered, at any level; nothing dropped is counted.
 */
public final class AsyncAppenderFindings implements FindingDeclarations {

	/**
	 * The smallest queue that is not reported: its discarding starts after 820 queued
	 * events, more than one line from each of the 800 request threads of incident 2's
	 * load while the appender is held up by one slow write. Logback's default, 256,
	 * starts discarding after 205.
	 */
	static final int MIN_QUEUE_SIZE = 1024;

	static final FindingType NEVER_BLOCK = FindingType.declare("logging.logback-async-never-block", WARNING,
			"A Logback AsyncAppender has neverBlock=true: when its queue is full every event is dropped, WARN and "
					+ "ERROR included, and none is counted.",
			"AsyncAppender '%1$s' has neverBlock=true: when its %2$d-slot queue is full, every event offered is "
					+ "dropped, WARN and ERROR included, and Logback counts none of them (AsyncAppenderBase offers "
					+ "and ignores the refusal).",
			"Remove <neverBlock>true</neverBlock> from the appender '%1$s' in the Logback configuration: WARN and "
					+ "ERROR then wait for a free slot instead of being lost, while TRACE, DEBUG and INFO are still "
					+ "discarded once fewer than queueSize/5 slots are free.");

	static final FindingType BLOCKING = FindingType.declare("logging.logback-async-blocking", WARNING,
			"A Logback AsyncAppender has discardingThreshold=0 and neverBlock=false: when its queue is full, every "
					+ "thread that logs, at INFO and below too, waits for the appender (incident 2).",
			"AsyncAppender '%1$s' has discardingThreshold=0 and neverBlock=false: it never discards, so when its "
					+ "%2$d-slot queue is full every thread that logs, at INFO, DEBUG and TRACE too, waits for the "
					+ "appender's one worker thread (incident 2: request threads blocked, 6,033 vs 8,035 QPS).",
			"Remove <discardingThreshold>0</discardingThreshold> from the appender '%1$s' in the Logback "
					+ "configuration: Logback then discards TRACE, DEBUG and INFO once fewer than queueSize/5 slots "
					+ "are free, and only WARN and ERROR wait.");

	static final FindingType CALLER_DATA = FindingType.declare("logging.logback-async-caller-data", WARNING,
			"A Logback AsyncAppender has includeCallerData=true: a stack walk per log event on the calling thread "
					+ "(~40% of the CPU in incident 3).",
			"AsyncAppender '%1$s' has includeCallerData=true: before queueing each event it computes the caller's "
					+ "location on the calling thread, a stack walk per log event (~40%% of the CPU in incident 3).",
			"Remove <includeCallerData>true</includeCallerData> from the appender '%1$s' in the Logback "
					+ "configuration, and drop %%C %%F %%L %%M %%caller (and their long forms) from the patterns of "
					+ "the appenders it feeds.");

	static final FindingType SMALL_QUEUE = FindingType.declare("logging.logback-async-small-queue", WARNING,
			"A Logback AsyncAppender's queue has fewer than 1024 slots (Logback's default is 256): INFO and below "
					+ "are discarded, uncounted, after a few hundred queued events.",
			"AsyncAppender '%1$s' queues %2$d events: it discards TRACE, DEBUG and INFO, uncounted, once fewer "
					+ "than %3$d slots are free, after %4$d queued events; one line from each of the 800 request "
					+ "threads of incident 2's load while one write is slow is more than that.",
			"Set <queueSize>8192</queueSize> (at least 1024) on the appender '%1$s' in the Logback configuration: "
					+ "discarding then starts after 6,554 queued events.");

	static final FindingType DISCARDING_THRESHOLD = FindingType.declare("logging.logback-async-discarding-threshold",
			WARNING,
			"A Logback AsyncAppender's discardingThreshold is not below its queueSize: the threshold counts FREE "
					+ "slots, so TRACE, DEBUG and INFO are discarded, uncounted, with the queue (almost) empty.",
			"AsyncAppender '%1$s' has discardingThreshold=%2$d and queueSize=%3$d: Logback discards TRACE, DEBUG "
					+ "and INFO while fewer than discardingThreshold slots are free (it counts free slots, not "
					+ "queued events), so %4$s, uncounted. WARN and ERROR are never discarded by it.",
			"Remove <discardingThreshold>%2$d</discardingThreshold> from the appender '%1$s' in the Logback "
					+ "configuration (the default, queueSize/5, discards from 80%% full), or set it below "
					+ "queueSize.");

	@Override
	public List<FindingType> findingTypes() {
		return List.of(NEVER_BLOCK, BLOCKING, CALLER_DATA, SMALL_QUEUE, DISCARDING_THRESHOLD);
	}

}
