package dev.safedefaults.feign;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.http.converter.autoconfigure.ClientHttpMessageConvertersCustomizer;
import org.springframework.cloud.openfeign.support.FeignHttpMessageConverters;
import org.springframework.cloud.openfeign.support.HttpMessageConverterCustomizer;
import org.springframework.http.converter.ByteArrayHttpMessageConverter;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.HttpMessageConverters;
import org.springframework.http.converter.StringHttpMessageConverter;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import org.springframework.http.converter.support.AllEncompassingFormHttpMessageConverter;
import org.springframework.util.ClassUtils;

/**
 * The converters every Feign client uses, built once at startup without the defaults
 * (incident 1: rebuilding the defaults on every call cost 25× in throughput). It lives in
 * the application context; each client's context gets its converters from
 * {@link #forClient}: the one shared instance, or, for a client whose own configuration
 * declares converter customizers, an instance of its own (built once, with them).
 * <p>
 * What goes in, in order: byte array, String (UTF-8) and JSON through the application's
 * {@link JsonMapper}; then the application's {@link ClientHttpMessageConvertersCustomizer}
 * beans (Boot's own add the application's {@link HttpMessageConverter} beans, its String
 * charset and JSON mapper); then the defaults are switched off again, because Boot's
 * default customizer calls {@code registerDefaults()}, and the form converter the builder
 * always adds is dropped; then the {@link HttpMessageConverterCustomizer} beans the client
 * sees. The result is frozen.
 */
final class SharedFeignConverters {

	private static final boolean JACKSON_PRESENT = ClassUtils.isPresent("tools.jackson.databind.json.JsonMapper",
			SharedFeignConverters.class.getClassLoader());

	private final @Nullable HttpMessageConverter<?> jsonConverter;

	private final Set<Object> sharedCustomizers;

	private final FrozenFeignHttpMessageConverters shared;

	SharedFeignConverters(@Nullable HttpMessageConverter<?> jsonConverter,
			List<ClientHttpMessageConvertersCustomizer> clientCustomizers,
			List<HttpMessageConverterCustomizer> feignCustomizers) {
		this.jsonConverter = jsonConverter;
		this.sharedCustomizers = identitySet(clientCustomizers, feignCustomizers);
		this.shared = build(clientCustomizers, feignCustomizers, true);
	}

	/**
	 * Creates the JSON converter the shared set starts from: the application's
	 * {@link JsonMapper} when it has exactly one, else a default one (built once), or
	 * none without Jackson.
	 * @param beanFactory the application's bean factory
	 * @return the converter, {@code null} without Jackson
	 */
	static @Nullable HttpMessageConverter<?> jsonConverter(BeanFactory beanFactory) {
		return JACKSON_PRESENT ? JacksonJson.converter(beanFactory) : null;
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
	 * @param feignCustomizers the {@link HttpMessageConverterCustomizer}s the client's
	 * context sees, in order
	 * @return the converters to use for that client
	 */
	FeignHttpMessageConverters forClient(List<ClientHttpMessageConvertersCustomizer> clientCustomizers,
			List<HttpMessageConverterCustomizer> feignCustomizers) {
		if (this.sharedCustomizers.equals(identitySet(clientCustomizers, feignCustomizers))) {
			return this.shared;
		}
		return build(clientCustomizers, feignCustomizers, false);
	}

	private FrozenFeignHttpMessageConverters build(List<ClientHttpMessageConvertersCustomizer> clientCustomizers,
			List<HttpMessageConverterCustomizer> feignCustomizers, boolean shared) {
		HttpMessageConverters.ClientBuilder builder = HttpMessageConverters.forClient();
		builder.addCustomConverter(new ByteArrayHttpMessageConverter());
		StringHttpMessageConverter string = new StringHttpMessageConverter(StandardCharsets.UTF_8);
		string.setWriteAcceptCharset(false);
		builder.withStringConverter(string);
		if (this.jsonConverter != null) {
			builder.withJsonConverter(this.jsonConverter);
		}
		clientCustomizers.forEach((customizer) -> customizer.customize(builder));
		// Boot's default client customizer calls registerDefaults(): the very rebuild of
		// every format on the class path that incident 1 is about. Switch it off again.
		builder.disableDefaults();
		List<HttpMessageConverter<?>> converters = new ArrayList<>();
		builder.build().forEach(converters::add);
		// The builder always adds a form converter (for reading form bodies, which JSON
		// clients do not get; Feign writes forms with its own encoder). A client that
		// reads forms adds one with an HttpMessageConverterCustomizer.
		converters.removeIf((converter) -> converter.getClass() == AllEncompassingFormHttpMessageConverter.class);
		feignCustomizers.forEach((customizer) -> customizer.accept(converters));
		return new FrozenFeignHttpMessageConverters(converters, shared);
	}

	private static Set<Object> identitySet(Collection<?> first, Collection<?> second) {
		Set<Object> set = Collections.newSetFromMap(new IdentityHashMap<>());
		set.addAll(first);
		set.addAll(second);
		return set;
	}

	/**
	 * Keeps Jackson's types out of {@link SharedFeignConverters}' signatures, so that it
	 * loads without Jackson.
	 */
	private static final class JacksonJson {

		static HttpMessageConverter<?> converter(BeanFactory beanFactory) {
			JsonMapper mapper = beanFactory.getBeanProvider(JsonMapper.class).getIfUnique();
			return (mapper != null) ? new JacksonJsonHttpMessageConverter(mapper) : new JacksonJsonHttpMessageConverter();
		}

	}

}
