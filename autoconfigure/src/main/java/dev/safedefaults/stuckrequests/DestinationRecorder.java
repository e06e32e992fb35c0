package dev.safedefaults.stuckrequests;

import java.io.IOException;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.SocketAddress;
import java.net.URI;
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;

/**
 * Learns which host and port a request thread calls: the JDK {@code HttpClient},
 * {@code HttpURLConnection} and Apache HttpClient 5 built with system properties
 * ({@code HttpClients.createSystem()}, what Spring's factories build by default) ask the
 * JVM's default {@link ProxySelector} on the calling thread before they connect. The
 * default is wrapped, before any application bean is created, by a selector that notes
 * the host and port for the request the thread runs and hands every question to the
 * selector it wraps, unchanged. Put back when the context closes, unless something
 * replaced it since. A client with a proxy selector of its own, or built before this
 * context, is not seen: its wait is still classified, without the host.
 */
final class DestinationRecorder implements BeanFactoryPostProcessor, DisposableBean {

	private static final Log logger = LogFactory.getLog(DestinationRecorder.class);

	private final InFlightRequests requests;

	private volatile @Nullable Recording installed;

	DestinationRecorder(InFlightRequests requests) {
		this.requests = requests;
	}

	InFlightRequests requests() {
		return this.requests;
	}

	@Override
	public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
		ProxySelector current = ProxySelector.getDefault();
		if (current == null) {
			// No default (set to null on purpose): nothing is asked, nothing to learn.
			return;
		}
		Recording recording = new Recording(current, this.requests);
		ProxySelector.setDefault(recording);
		this.installed = recording;
	}

	/**
	 * Whether the hosts called are being learnt.
	 * @return {@code true} while this context's selector is the JVM's default
	 */
	boolean isRecording() {
		Recording recording = this.installed;
		return recording != null && ProxySelector.getDefault() == recording;
	}

	@Override
	public void destroy() {
		Recording recording = this.installed;
		if (recording != null && ProxySelector.getDefault() == recording) {
			ProxySelector.setDefault(recording.delegate);
		}
		this.installed = null;
	}

	/**
	 * Notes the destination, then answers as the wrapped selector does.
	 */
	private static final class Recording extends ProxySelector {

		private final ProxySelector delegate;

		private final InFlightRequests requests;

		Recording(ProxySelector delegate, InFlightRequests requests) {
			this.delegate = delegate;
			this.requests = requests;
		}

		@Override
		public List<Proxy> select(URI uri) {
			try {
				this.requests.calling(uri);
			}
			catch (RuntimeException ex) {
				logger.debug("Could not note the destination of a call", ex);
			}
			return this.delegate.select(uri);
		}

		@Override
		public void connectFailed(URI uri, SocketAddress address, IOException ex) {
			this.delegate.connectFailed(uri, address, ex);
		}

	}

}
