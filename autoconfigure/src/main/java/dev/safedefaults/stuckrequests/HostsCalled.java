package dev.safedefaults.stuckrequests;

/**
 * Whether the watch learns the host and port each request calls (its {@code hosts}
 * route), for the feature's status.
 */
public interface HostsCalled {

	/**
	 * Whether the hosts called are being learnt now.
	 * @return {@code true} while they are
	 */
	boolean isRecording();

}
