package dev.safedefaults.stuckrequests;

/**
 * What one stuck request waits on: its kind, and what it waits on in words (a host and
 * port with the client library, a pool, a lock and its holder), with the code that waits.
 * Two requests with the same kind, target and site are the same wait, and their finding's
 * subject names all three.
 *
 * @param kind the kind of wait
 * @param target what it waits on, for example
 * {@code 127.0.0.1:8081 (JDK HttpClient via RestClient)}
 * @param site the first application frame, or the top frame when there is none
 * @param interruptible whether {@code Thread.interrupt()} ends the wait
 * ({@link dev.safedefaults.support.LibraryFrames#interruptEnds})
 */
public record Wait(WaitKind kind, String target, String site, boolean interruptible) {

	/**
	 * A wait no interrupt is said to end.
	 * @param kind the kind of wait
	 * @param target what it waits on
	 * @param site the code that waits
	 */
	public Wait(WaitKind kind, String target, String site) {
		this(kind, target, site, false);
	}

	/**
	 * The wait in words, as its finding's subject: everything that tells two waits apart.
	 * @return for example
	 * {@code HTTP response: 127.0.0.1:8081 (JDK HttpClient via RestClient) at com.example.Prices.price:29}
	 */
	public String subject() {
		return this.kind.label() + ": " + this.target + " at " + this.site;
	}

}
