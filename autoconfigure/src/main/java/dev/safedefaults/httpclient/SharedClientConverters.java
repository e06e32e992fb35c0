package dev.safedefaults.httpclient;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

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
 * {@link HttpMessageConverter} beans, its String charset and JSON mapper). What the
 * customizers configure is recorded: the custom converters and the converter of each
 * slot. The converters Framework's defaults alone would bring are left out: on Framework
 * 7.0.7 and later by switching the defaults off; before it (Boot 4.0.0 to 4.0.5), where a
 * builder with its defaults off drops even the converters configured on it, by building
 * with the defaults and keeping the configured instances. The form converter Framework's
 * builder always adds is left out of {@link #converters()}: a {@code RestClient}'s
 * builder adds its own, and Feign writes forms with its own encoder.
 * <p>
 * Then {@link ConvertersGuard} checks the set against what the clients' usual converters
 * can do. If anything is missing the set is the usual converters instead (built once
 * too), {@link #missing()} says what, and the {@code RestClient} feature stands back.
 */
public final class SharedClientConverters {

	private static final boolean JACKSON_PRESENT = ClassUtils.isPresent("tools.jackson.databind.json.JsonMapper",
			SharedClientConverters.class.getClassLoader());

	private final List<HttpMessageConverter<?>> converters;

	private final List<HttpMessageConverter<?>> custom;

	private final Map<ConverterSlot, HttpMessageConverter<?>> slots;

	private final boolean defaultsOffKeepsConfigured;

	private final List<String> missing;

	private SharedClientConverters(List<HttpMessageConverter<?>> converters, RecordingClientBuilder recorded,
			boolean defaultsOffKeepsConfigured, List<String> missing) {
		this.converters = List.copyOf(converters);
		this.custom = List.copyOf(recorded.custom());
		this.slots = Map.copyOf(recorded.slots());
		this.defaultsOffKeepsConfigured = defaultsOffKeepsConfigured;
		this.missing = missing;
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
		return build(jsonConverter, customizers, HttpMessageConverters::forClient,
				FrameworkClientBuilders.defaultsOffKeepsConfigured());
	}

	/**
	 * Builds the set once from the builders a supplier gives.
	 * @param jsonConverter the JSON converter to start from, {@code null} without Jackson
	 * @param customizers the application's customizers, in order
	 * @param builders new client converters builders
	 * @param defaultsOffKeepsConfigured whether a builder with its defaults off keeps the
	 * converters configured on it (Framework 7.0.7 and later)
	 * @return the frozen set
	 */
	static SharedClientConverters build(@Nullable HttpMessageConverter<?> jsonConverter,
			List<ClientHttpMessageConvertersCustomizer> customizers,
			Supplier<HttpMessageConverters.ClientBuilder> builders, boolean defaultsOffKeepsConfigured) {
		RecordingClientBuilder recorder = new RecordingClientBuilder(builders.get());
		HttpMessageConverters.ClientBuilder builder = recorder.builder();
		builder.addCustomConverter(new ByteArrayHttpMessageConverter());
		StringHttpMessageConverter string = new StringHttpMessageConverter(StandardCharsets.UTF_8);
		string.setWriteAcceptCharset(false);
		builder.withStringConverter(string);
		if (jsonConverter != null) {
			builder.withJsonConverter(jsonConverter);
		}
		customizers.forEach((customizer) -> customizer.customize(builder));
		List<HttpMessageConverter<?>> built = withoutDefaults(recorder, defaultsOffKeepsConfigured);
		List<HttpMessageConverter<?>> usual = usual(builders.get(), recorder);
		List<String> missing = ConvertersGuard.missing(built, usual);
		return new SharedClientConverters(missing.isEmpty() ? built : usual, recorder, defaultsOffKeepsConfigured,
				missing);
	}

	private static List<HttpMessageConverter<?>> withoutDefaults(RecordingClientBuilder recorder,
			boolean defaultsOffKeepsConfigured) {
		HttpMessageConverters.ClientBuilder target = recorder.target();
		if (defaultsOffKeepsConfigured) {
			// Boot's default client customizer calls registerDefaults(): the very rebuild
			// of every format on the class path that incident 1 is about. Switch it off.
			target.disableDefaults();
			return withoutForm(target.build());
		}
		// Framework before 7.0.7 keeps only the custom converters with the defaults off:
		// build with them, keep what was configured, in Framework's order.
		target.registerDefaults();
		Set<HttpMessageConverter<?>> configured = recorder.configured();
		List<HttpMessageConverter<?>> built = withoutForm(target.build());
		built.removeIf((converter) -> !configured.contains(converter));
		return built;
	}

	/**
	 * What a client gets without the starter: Framework's defaults with what the
	 * customizers configured (replayed from the recording, so that each customizer runs
	 * once), as Boot's {@code RestClient.Builder} and OpenFeign assemble them.
	 */
	private static List<HttpMessageConverter<?>> usual(HttpMessageConverters.ClientBuilder builder,
			RecordingClientBuilder recorded) {
		builder.registerDefaults();
		recorded.custom().forEach(builder::addCustomConverter);
		recorded.slots().forEach((slot, converter) -> slot.fill(builder, converter));
		return withoutForm(builder.build());
	}

	/**
	 * The converters built, without the form converter Framework's builder always adds.
	 */
	private static List<HttpMessageConverter<?>> withoutForm(HttpMessageConverters converters) {
		List<HttpMessageConverter<?>> list = new ArrayList<>();
		converters.forEach(list::add);
		list.removeIf((converter) -> converter.getClass() == AllEncompassingFormHttpMessageConverter.class);
		return list;
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
	 * What the set lacked that the clients' usual converters have; when not empty,
	 * {@link #converters()} are the usual converters (built once) instead, and
	 * {@link #applyTo} must not be used.
	 * @return a description of each thing missing, empty when the set is complete
	 */
	public List<String> missing() {
		return this.missing;
	}

	/**
	 * Whether the set has everything the clients' usual converters have.
	 * @return {@code true} unless something is {@link #missing()}
	 */
	public boolean isComplete() {
		return this.missing.isEmpty();
	}

	/**
	 * Whether clients get every converter from the set, nothing created when one is
	 * built: on Framework before 7.0.7 the defaults stay on in each client's builder
	 * (only the set's converters are shared, the defaults' small ones are made again).
	 * @return {@code true} on Framework 7.0.7 and later
	 */
	public boolean sharesEveryConverter() {
		return this.defaultsOffKeepsConfigured;
	}

	/**
	 * Hands these instances to a client's converters builder, each in the slot it was
	 * configured in, with the defaults off where Framework keeps them so (7.0.7 and
	 * later): nothing is created, and what the client configures afterwards (its own JSON
	 * converter, a custom one) still applies. Before 7.0.7 the defaults stay on: the
	 * slots are filled with the set's converters, and Framework adds only the defaults'
	 * small ones, as it would without the starter.
	 * @param builder a client's converters builder
	 */
	public void applyTo(HttpMessageConverters.ClientBuilder builder) {
		if (this.defaultsOffKeepsConfigured) {
			builder.disableDefaults();
		}
		else {
			builder.registerDefaults();
		}
		this.custom.forEach(builder::addCustomConverter);
		this.slots.forEach((slot, converter) -> slot.fill(builder, converter));
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
