package dev.safedefaults.httpclient;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.http.converter.autoconfigure.ClientHttpMessageConvertersCustomizer;
import org.springframework.http.MediaType;
import org.springframework.http.converter.ByteArrayHttpMessageConverter;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.HttpMessageConverters;
import org.springframework.http.converter.StringHttpMessageConverter;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import org.springframework.http.converter.support.AllEncompassingFormHttpMessageConverter;
import org.springframework.util.ClassUtils;

/**
 * The converters every HTTP client of the application uses, built once at startup without
 * the defaults (incident 1: rebuilding the defaults on every call cost 25× in
 * throughput), then frozen. Feign clients and every {@code RestClient} built from Boot's
 * builder (so every HTTP service group) get these same instances.
 * <p>
 * What goes in, in order: byte array, String (UTF-8) and JSON through the application's
 * {@link JsonMapper}; then the application's
 * {@link ClientHttpMessageConvertersCustomizer} beans (Boot's own add the application's
 * {@link HttpMessageConverter} beans, its String charset and JSON mapper); then the
 * defaults are switched off again, because Boot's default customizer calls
 * {@code registerDefaults()}. The form converter Framework's builder always adds is left
 * out of {@link #converters()}: a {@code RestClient}'s builder adds its own, and Feign
 * writes forms with its own encoder.
 */
public final class SharedClientConverters {

	private static final boolean JACKSON_PRESENT = ClassUtils.isPresent("tools.jackson.databind.json.JsonMapper",
			SharedClientConverters.class.getClassLoader());

	private final List<HttpMessageConverter<?>> converters;

	private final List<HttpMessageConverter<?>> custom;

	private final @Nullable HttpMessageConverter<?> string;

	private final List<HttpMessageConverter<?>> core;

	private SharedClientConverters(List<HttpMessageConverter<?>> built) {
		// Framework's client builder lays its result out as: custom converters, the base
		// ones (String), the form converter, the core ones (JSON and the other formats).
		// Keeping that split lets a client's own builder receive each in its slot, so
		// that
		// a client that sets its own JSON converter still replaces it.
		int form = indexOfForm(built);
		List<HttpMessageConverter<?>> before = (form >= 0) ? built.subList(0, form) : built;
		HttpMessageConverter<?> last = before.isEmpty() ? null : before.get(before.size() - 1);
		this.string = (last instanceof StringHttpMessageConverter) ? last : null;
		this.custom = List.copyOf((this.string != null) ? before.subList(0, before.size() - 1) : before);
		this.core = (form >= 0) ? List.copyOf(built.subList(form + 1, built.size())) : List.of();
		List<HttpMessageConverter<?>> all = new ArrayList<>(this.custom);
		if (this.string != null) {
			all.add(this.string);
		}
		all.addAll(this.core);
		this.converters = List.copyOf(all);
	}

	/**
	 * Builds the set once.
	 * @param jsonConverter the JSON converter to start from, {@code null} without Jackson
	 * @param customizers the application's
	 * {@link ClientHttpMessageConvertersCustomizer}s, in order
	 * @return the frozen set
	 */
	public static SharedClientConverters build(@Nullable HttpMessageConverter<?> jsonConverter,
			List<ClientHttpMessageConvertersCustomizer> customizers) {
		HttpMessageConverters.ClientBuilder builder = HttpMessageConverters.forClient();
		builder.addCustomConverter(new ByteArrayHttpMessageConverter());
		StringHttpMessageConverter string = new StringHttpMessageConverter(StandardCharsets.UTF_8);
		string.setWriteAcceptCharset(false);
		builder.withStringConverter(string);
		if (jsonConverter != null) {
			builder.withJsonConverter(jsonConverter);
		}
		customizers.forEach((customizer) -> customizer.customize(builder));
		// Boot's default client customizer calls registerDefaults(): the very rebuild of
		// every format on the class path that incident 1 is about. Switch it off again.
		builder.disableDefaults();
		List<HttpMessageConverter<?>> built = new ArrayList<>();
		builder.build().forEach(built::add);
		return new SharedClientConverters(built);
	}

	/**
	 * Creates the JSON converter the set starts from: the application's
	 * {@link JsonMapper} when it has exactly one, else a default one (built once), or
	 * none without Jackson.
	 * @param beanFactory the application's bean factory
	 * @return the converter, {@code null} without Jackson
	 */
	public static @Nullable HttpMessageConverter<?> jsonConverter(BeanFactory beanFactory) {
		return JACKSON_PRESENT ? JacksonJson.converter(beanFactory) : null;
	}

	/**
	 * Returns the converters, always the same unmodifiable list of the same instances.
	 * @return the converters
	 */
	public List<HttpMessageConverter<?>> converters() {
		return this.converters;
	}

	/**
	 * Hands these instances to a client's converters builder, each in the slot it was
	 * built in, with the defaults off: nothing is created, and what the client configures
	 * afterwards (its own JSON converter, a custom one) still applies.
	 * @param builder a client's converters builder
	 */
	public void applyTo(HttpMessageConverters.ClientBuilder builder) {
		builder.disableDefaults();
		this.custom.forEach(builder::addCustomConverter);
		if (this.string != null) {
			builder.withStringConverter(this.string);
		}
		for (HttpMessageConverter<?> converter : this.core) {
			if (isJson(converter)) {
				builder.withJsonConverter(converter);
			}
			else {
				builder.addCustomConverter(converter);
			}
		}
	}

	/**
	 * Whether a converter reads and writes JSON objects.
	 * @param converter the converter
	 * @return {@code true} for a JSON converter
	 */
	public static boolean isJson(HttpMessageConverter<?> converter) {
		return converter.canRead(Object.class, MediaType.APPLICATION_JSON)
				&& converter.canWrite(Object.class, MediaType.APPLICATION_JSON)
				&& !(converter instanceof StringHttpMessageConverter);
	}

	private static int indexOfForm(List<HttpMessageConverter<?>> converters) {
		for (int i = 0; i < converters.size(); i++) {
			if (converters.get(i).getClass() == AllEncompassingFormHttpMessageConverter.class) {
				return i;
			}
		}
		return -1;
	}

	/**
	 * Keeps Jackson's types out of {@link SharedClientConverters}' signatures, so that it
	 * loads without Jackson.
	 */
	private static final class JacksonJson {

		static HttpMessageConverter<?> converter(BeanFactory beanFactory) {
			JsonMapper mapper = beanFactory.getBeanProvider(JsonMapper.class).getIfUnique();
			return (mapper != null) ? new JacksonJsonHttpMessageConverter(mapper)
					: new JacksonJsonHttpMessageConverter();
		}

	}

}
