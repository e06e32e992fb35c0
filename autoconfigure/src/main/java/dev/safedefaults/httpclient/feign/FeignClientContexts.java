package dev.safedefaults.httpclient.feign;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.cloud.openfeign.FeignClientFactory;
import org.springframework.cloud.openfeign.FeignClientSpecification;
import org.springframework.cloud.openfeign.support.FeignHttpMessageConverters;

/**
 * Every Feign client of the application and its context's converters bean, asked once for
 * both startup checks. Clients are enumerated from the {@link FeignClientSpecification}s,
 * not from the contexts that happen to exist; asking the client factory for a client's
 * converters bean creates the client's context (clients injected {@code @Lazy} or
 * resolving their URL lazily have none at startup), nothing more: no request is sent, no
 * codec is called, no field is read.
 */
final class FeignClientContexts {

	private final ListableBeanFactory beanFactory;

	private final ObjectProvider<FeignClientFactory> clientFactories;

	private volatile @Nullable List<ClientContext> contexts;

	FeignClientContexts(ListableBeanFactory beanFactory, ObjectProvider<FeignClientFactory> clientFactories) {
		this.beanFactory = beanFactory;
		this.clientFactories = clientFactories;
	}

	/**
	 * The names of every Feign client of the application, from its specifications.
	 * @param beanFactory the application's bean factory
	 * @return the client names, sorted
	 */
	static Set<String> clientNames(ListableBeanFactory beanFactory) {
		Set<String> names = new TreeSet<>();
		for (FeignClientSpecification specification : beanFactory.getBeansOfType(FeignClientSpecification.class)
			.values()) {
			String name = specification.getName();
			if (name != null && !name.startsWith("default.")) {
				names.add(name);
			}
		}
		return names;
	}

	/**
	 * Every client's context, created the first time this is called.
	 * @return one entry per client, sorted by name
	 */
	List<ClientContext> all() {
		List<ClientContext> result = this.contexts;
		if (result == null) {
			synchronized (this) {
				result = this.contexts;
				if (result == null) {
					result = List.copyOf(create());
					this.contexts = result;
				}
			}
		}
		return result;
	}

	private List<ClientContext> create() {
		FeignClientFactory clientFactory = this.clientFactories.getIfAvailable();
		List<ClientContext> result = new ArrayList<>();
		if (clientFactory == null) {
			return result;
		}
		for (String name : clientNames(this.beanFactory)) {
			try {
				result.add(new ClientContext(name, clientFactory.getInstance(name, FeignHttpMessageConverters.class),
						null));
			}
			catch (RuntimeException | LinkageError ex) {
				result.add(new ClientContext(name, null, ex));
			}
		}
		return result;
	}

	/**
	 * One client's context.
	 *
	 * @param client the client's name
	 * @param converters its context's converters bean, the one OpenFeign's encoder and
	 * decoder use, or {@code null}
	 * @param failure why the context could not be created, or {@code null}
	 */
	record ClientContext(String client, @Nullable FeignHttpMessageConverters converters, @Nullable Throwable failure) {
	}

}
