package dev.safedefaults.httpclient.feign;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

import dev.safedefaults.httpclient.SharedClientConverters;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.http.converter.autoconfigure.ClientHttpMessageConvertersCustomizer;
import org.springframework.cloud.openfeign.support.FeignHttpMessageConverters;
import org.springframework.cloud.openfeign.support.HttpMessageConverterCustomizer;
import org.springframework.http.converter.HttpMessageConverter;

/**
 * The converters every Feign client uses: the application's
 * {@link SharedClientConverters} (built once at startup without the defaults, the same
 * instances every other client kind gets), then the
 * {@link HttpMessageConverterCustomizer} beans the client sees, frozen. Each client's
 * context gets its converters from {@link #forClient}: the one shared instance, or, for a
 * client whose own configuration declares converter customizers, an instance of its own
 * (built once, with them).
 */
final class SharedFeignConverters {

	private final @Nullable HttpMessageConverter<?> jsonConverter;

	private final Set<Object> sharedCustomizers;

	private final FrozenFeignHttpMessageConverters shared;

	SharedFeignConverters(SharedClientConverters clientConverters, @Nullable HttpMessageConverter<?> jsonConverter,
			List<ClientHttpMessageConvertersCustomizer> clientCustomizers,
			List<HttpMessageConverterCustomizer> feignCustomizers) {
		this.jsonConverter = jsonConverter;
		List<HttpMessageConverterCustomizer> applied = withoutCounters(feignCustomizers);
		this.sharedCustomizers = identitySet(clientCustomizers, applied);
		this.shared = frozen(clientConverters, applied, true);
	}

	/**
	 * Returns the instance shared by every client that declares no customizer of its own.
	 * @return the shared converters
	 */
	FeignHttpMessageConverters shared() {
		return this.shared;
	}

	/**
	 * Returns the converters for one client: the shared instance when the client sees the
	 * same customizers as the application, else a new instance built once with the
	 * customizers it sees (its own configuration's included).
	 * @param clientCustomizers the {@link ClientHttpMessageConvertersCustomizer}s the
	 * client's context sees, in order
	 * @param allFeignCustomizers the {@link HttpMessageConverterCustomizer}s the client's
	 * context sees, in order
	 * @return the converters to use for that client
	 */
	FeignHttpMessageConverters forClient(List<ClientHttpMessageConvertersCustomizer> clientCustomizers,
			List<HttpMessageConverterCustomizer> allFeignCustomizers) {
		List<HttpMessageConverterCustomizer> feignCustomizers = withoutCounters(allFeignCustomizers);
		if (this.sharedCustomizers.equals(identitySet(clientCustomizers, feignCustomizers))) {
			return this.shared;
		}
		return frozen(SharedClientConverters.build(this.jsonConverter, clientCustomizers), feignCustomizers, false);
	}

	private static FrozenFeignHttpMessageConverters frozen(SharedClientConverters base,
			List<HttpMessageConverterCustomizer> feignCustomizers, boolean shared) {
		if (feignCustomizers.isEmpty()) {
			// The very list every other client kind gets: one object, not a copy.
			return new FrozenFeignHttpMessageConverters(base.converters(), shared, !base.isComplete());
		}
		List<HttpMessageConverter<?>> converters = new ArrayList<>(base.converters());
		feignCustomizers.forEach((customizer) -> customizer.accept(converters));
		return new FrozenFeignHttpMessageConverters(converters, shared, !base.isComplete());
	}

	/**
	 * The customizers without the starter's {@link ConverterBuildCounter}, which only
	 * counts builds of OpenFeign's converters: these are built once, and are the same for
	 * every client whatever counter its context has.
	 */
	private static List<HttpMessageConverterCustomizer> withoutCounters(
			List<HttpMessageConverterCustomizer> customizers) {
		return customizers.stream().filter((customizer) -> !(customizer instanceof ConverterBuildCounter)).toList();
	}

	private static Set<Object> identitySet(Collection<?> first, Collection<?> second) {
		Set<Object> set = Collections.newSetFromMap(new IdentityHashMap<>());
		set.addAll(first);
		set.addAll(second);
		return set;
	}

}
