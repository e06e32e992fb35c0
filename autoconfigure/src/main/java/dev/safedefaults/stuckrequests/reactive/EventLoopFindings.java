package dev.safedefaults.stuckrequests.reactive;

import java.util.List;

import dev.safedefaults.check.FindingDeclarations;
import dev.safedefaults.check.FindingType;

import static dev.safedefaults.check.Severity.WARNING;

/**
 * The event-loop watch's finding, declared once. Args: the loop's thread, the bound, what
 * it waits on (the wait's kind and target as the servlet watch names them), the
 * application's frame.
 */
public final class EventLoopFindings implements FindingDeclarations {

	/** An event loop that has run none of its tasks for longer than the bound. */
	static final FindingType BLOCKED = FindingType.declare("stuck-requests.event-loop-blocked", WARNING,
			"An event loop of Reactor Netty (a WebFlux server's, shared with its WebClient calls) has run none of "
					+ "its tasks for longer than safe-defaults.stuck-requests.event-loop.blocked-threshold: the "
					+ "finding names the frame that blocks it and what it waits on. While a loop is blocked, every "
					+ "connection it serves waits. Shown while it lasts.",
			"The event loop %1$s has run none of its tasks for longer than %2$s: it is in %3$s, at %4$s. Each "
					+ "loop serves many connections: while it is blocked, every request on them, their responses "
					+ "and the WebClient calls on the loop wait, however fast their own work is (a blocking call "
					+ "on an event loop stalls a share of the whole service, the reactive form of incidents 2 "
					+ "and 6).",
			"Take the blocking call off the event loop: run it on a scheduler made for blocking work "
					+ "(Mono.fromCallable(...).subscribeOn(Schedulers.boundedElastic())), or use a non-blocking "
					+ "client instead (WebClient for HTTP, R2DBC for a database); keep locks, sleeps, "
					+ "synchronous I/O and block() out of handlers and operators; log through an asynchronous "
					+ "appender (the starter's default). BlockHound finds such calls in tests.");

	@Override
	public List<FindingType> findingTypes() {
		return List.of(BLOCKED);
	}

}
