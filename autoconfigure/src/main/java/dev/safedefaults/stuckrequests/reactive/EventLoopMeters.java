package dev.safedefaults.stuckrequests.reactive;

/**
 * What the event-loop watch measures, for its metric.
 */
public interface EventLoopMeters {

	/**
	 * Event loops blocked now: none of their tasks ran for longer than the bound.
	 * @return their number
	 */
	int blockedEventLoops();

}
