package dev.safedefaults.httpclient.feign;

import java.util.List;
import java.util.stream.Stream;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.cloud.openfeign.support.FeignHttpMessageConverters;
import org.springframework.http.converter.HttpMessageConverter;

/**
 * A {@link FeignHttpMessageConverters} whose converters were built once, before it was
 * created, and never change. Upstream's class always registers the defaults when it
 * builds (there is no switch to turn that off), so this one never builds at all.
 */
final class FrozenFeignHttpMessageConverters extends FeignHttpMessageConverters {

	private final List<HttpMessageConverter<?>> converters;

	private final boolean shared;

	private final boolean usual;

	FrozenFeignHttpMessageConverters(List<HttpMessageConverter<?>> converters, boolean shared, boolean usual) {
		super(none(), none());
		this.converters = List.copyOf(converters);
		this.shared = shared;
		this.usual = usual;
	}

	/**
	 * Returns the converters, always the same unmodifiable list.
	 * @return the converters
	 */
	@Override
	public List<HttpMessageConverter<?>> getConverters() {
		return this.converters;
	}

	/**
	 * Whether this is the instance shared by every client that declares no customizer of
	 * its own.
	 * @return {@code true} for the shared instance
	 */
	boolean isShared() {
		return this.shared;
	}

	/**
	 * Whether these are the client's usual converters (Framework's defaults with the
	 * customizers, built once) because the shared set turned out incomplete.
	 * @return {@code true} for the usual converters
	 */
	boolean isUsual() {
		return this.usual;
	}

	private static <T> ObjectProvider<T> none() {
		return new ObjectProvider<>() {

			@Override
			public Stream<T> stream() {
				return Stream.empty();
			}

		};
	}

}
