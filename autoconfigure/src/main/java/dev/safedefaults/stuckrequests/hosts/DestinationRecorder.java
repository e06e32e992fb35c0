package dev.safedefaults.stuckrequests.hosts;

import java.net.ProxySelector;

import dev.safedefaults.stuckrequests.HostsCalled;
import dev.safedefaults.stuckrequests.InFlightRequests;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;

/**
 * Learns which host and port a request thread calls, for one application context: the JDK
 * {@code HttpClient}, {@code HttpURLConnection} and Apache HttpClient 5 built with system
 * properties ({@code HttpClients.createSystem()}, what Spring's factories build by
 * default) ask the JVM's default {@link ProxySelector} on the calling thread before they
 * connect. The context registers with the JVM's one {@link HostsCalledSelector} before
 * any application bean is created (the JDK HttpClient keeps the selector it was built
 * with), gives it its requests in flight once its beans exist, and leaves when it closes.
 * A client with a proxy selector of its own, or built before the first context, is not
 * seen: its wait is still classified, without the host.
 */
public final class DestinationRecorder
		implements HostsCalled, BeanFactoryPostProcessor, SmartInitializingSingleton, DisposableBean {

	private volatile HostsCalledSelector.@Nullable Registration registration;

	private @Nullable ConfigurableListableBeanFactory beanFactory;

	@Override
	public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
		this.beanFactory = beanFactory;
		this.registration = HostsCalledSelector.register();
	}

	@Override
	public void afterSingletonsInstantiated() {
		HostsCalledSelector.Registration registered = this.registration;
		if (registered != null && this.beanFactory != null) {
			this.beanFactory.getBeanProvider(InFlightRequests.class).ifAvailable(registered::requests);
		}
	}

	/**
	 * Whether the hosts called are being learnt.
	 * @return {@code true} while this context is registered and the JVM's one selector is
	 * the default
	 */
	@Override
	public boolean isRecording() {
		return this.registration != null && HostsCalledSelector.isDefault();
	}

	@Override
	public void destroy() {
		HostsCalledSelector.Registration registered = this.registration;
		if (registered != null) {
			registered.close();
		}
		this.registration = null;
	}

}
