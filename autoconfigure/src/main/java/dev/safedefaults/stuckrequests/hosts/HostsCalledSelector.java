package dev.safedefaults.stuckrequests.hosts;

import java.io.IOException;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.SocketAddress;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.safedefaults.stuckrequests.InFlightRequests;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The one proxy selector of the JVM that notes the host and port a request thread calls,
 * shared by every application context that learns them: the JDK's default
 * {@link ProxySelector} is JVM-wide, so it is wrapped once, however many contexts run,
 * and each context registers its requests in flight with it. It answers every question as
 * the selector it wraps, unchanged, and holds no settings of its own. The wrapped
 * selector is put back when the last context leaves, unless something replaced this one
 * since.
 */
public final class HostsCalledSelector extends ProxySelector {

	private static final Log logger = LogFactory.getLog(HostsCalledSelector.class);

	/** The JVM's one instance: JVM-wide because the default selector is. */
	private static final HostsCalledSelector JVM = new HostsCalledSelector();

	private final List<Registration> registrations = new CopyOnWriteArrayList<>();

	private volatile @Nullable ProxySelector delegate;

	private HostsCalledSelector() {
	}

	/**
	 * Registers an application context, making this selector the JVM's default if it is
	 * not yet and there is one to wrap.
	 * @return the context's registration, to give its requests to and to close when it
	 * closes
	 */
	public static Registration register() {
		return JVM.add();
	}

	/**
	 * Whether this selector is the JVM's default now.
	 * @return {@code true} when the hosts called through the default are noted
	 */
	public static boolean isDefault() {
		return ProxySelector.getDefault() == JVM;
	}

	private synchronized Registration add() {
		ProxySelector current = ProxySelector.getDefault();
		if (current != this && current != null && this.registrations.isEmpty()) {
			this.delegate = current;
			ProxySelector.setDefault(this);
		}
		Registration registration = new Registration();
		this.registrations.add(registration);
		return registration;
	}

	private synchronized void remove(Registration registration) {
		this.registrations.remove(registration);
		ProxySelector wrapped = this.delegate;
		if (this.registrations.isEmpty() && wrapped != null) {
			if (ProxySelector.getDefault() == this) {
				ProxySelector.setDefault(wrapped);
			}
			this.delegate = null;
		}
	}

	@Override
	public List<Proxy> select(URI uri) {
		for (Registration registration : this.registrations) {
			InFlightRequests requests = registration.requests;
			if (requests != null) {
				try {
					requests.calling(uri);
				}
				catch (RuntimeException ex) {
					logger.debug("Could not note the destination of a call", ex);
				}
			}
		}
		ProxySelector wrapped = this.delegate;
		return (wrapped != null) ? wrapped.select(uri) : List.of(Proxy.NO_PROXY);
	}

	@Override
	public void connectFailed(URI uri, SocketAddress address, IOException ex) {
		ProxySelector wrapped = this.delegate;
		if (wrapped != null) {
			wrapped.connectFailed(uri, address, ex);
		}
	}

	/**
	 * One application context's registration.
	 */
	public static final class Registration implements AutoCloseable {

		private volatile @Nullable InFlightRequests requests;

		/**
		 * Gives the context's requests in flight, whose calls are then noted.
		 * @param requests the requests
		 */
		public void requests(InFlightRequests requests) {
			this.requests = requests;
		}

		@Override
		public void close() {
			JVM.remove(this);
		}

	}

}
