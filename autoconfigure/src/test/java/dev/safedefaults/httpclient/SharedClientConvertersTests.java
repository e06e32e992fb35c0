package dev.safedefaults.httpclient;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.http.converter.autoconfigure.ClientHttpMessageConvertersCustomizer;
import org.springframework.http.MediaType;
import org.springframework.http.converter.ByteArrayHttpMessageConverter;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.HttpMessageConverters;
import org.springframework.http.converter.ResourceHttpMessageConverter;
import org.springframework.http.converter.StringHttpMessageConverter;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shared set on the Framework the build runs, and on the behaviour of the Framework
 * versions before 7.0.7 (Boot 4.0.0 to 4.0.5), where a client builder with its defaults
 * off drops the converters configured on it (issue 42: on Boot 4.0.3 every JSON call
 * failed). The {@code boot-matrix} consumer build proves the same on those Boot versions.
 * Covers {@code FrameworkClientBuilders} (the probe), {@code RecordingClientBuilder} and
 * {@code ConverterSlot} (what the customizers configured, replayed into a client's
 * builder slot by slot) and {@code ConvertersGuard} (what an incomplete set lacks).
 */
class SharedClientConvertersTests {

	private final JacksonJsonHttpMessageConverter json = new JacksonJsonHttpMessageConverter(
			JsonMapper.builder().build());

	@Test
	void thisFrameworkKeepsWhatIsConfiguredOnABuilderWithItsDefaultsOff() {
		// Framework 7.0.10 (Boot 4.0.9): the probe takes the way without defaults.
		assertThat(FrameworkClientBuilders.defaultsOffKeepsConfigured()).isTrue();
		assertThat(FrameworkClientBuilders.hasListConfigurer()).isTrue();
	}

	@Test
	void theSetHasBytesTextAndJsonAndNoneOfTheDefaultsAndIsComplete() {
		SharedClientConverters set = SharedClientConverters.build(this.json, List.of());
		assertThat(set.isComplete()).as("missing: %s", set.missing()).isTrue();
		assertThat(set.converters()).map(Object::getClass)
			.containsExactly(ByteArrayHttpMessageConverter.class, StringHttpMessageConverter.class,
					JacksonJsonHttpMessageConverter.class);
		assertThat(set.converters()).contains(this.json);
		assertThat(set.sharesEveryConverter()).isTrue();
	}

	@Test
	void beforeFramework707TheSetIsTheSameAndStillComplete() {
		ClientHttpMessageConvertersCustomizer bootsDefault = HttpMessageConverters.ClientBuilder::registerDefaults;
		SharedClientConverters current = SharedClientConverters.build(this.json, List.of(bootsDefault),
				HttpMessageConverters::forClient, true);
		SharedClientConverters before = SharedClientConverters.build(this.json, List.of(bootsDefault),
				HttpMessageConverters::forClient, false);
		assertThat(before.isComplete()).as("missing: %s", before.missing()).isTrue();
		assertThat(before.converters()).map(Object::getClass)
			.containsExactlyElementsOf(current.converters().stream().map(Object::getClass).toList());
		assertThat(before.converters()).noneMatch(ResourceHttpMessageConverter.class::isInstance);
		assertThat(before.sharesEveryConverter()).isFalse();
	}

	@Test
	void beforeFramework707AClientKeepsItsDefaultsOnAndGetsTheSetsJsonAndText() {
		SharedClientConverters before = SharedClientConverters.build(this.json, List.of(),
				HttpMessageConverters::forClient, false);
		HttpMessageConverters.ClientBuilder client = HttpMessageConverters.forClient();
		before.applyTo(client);
		List<HttpMessageConverter<?>> converters = list(client.build());
		assertThat(converters).contains(this.json);
		assertThat(converters).filteredOn(StringHttpMessageConverter.class::isInstance)
			.singleElement()
			.isSameAs(before.converters().get(1));
		// What the client would have had without the starter is still there.
		assertThat(converters).anyMatch(ResourceHttpMessageConverter.class::isInstance);
		// A JSON converter the application sets on the client afterwards wins, as it does
		// without the starter.
		JacksonJsonHttpMessageConverter own = new JacksonJsonHttpMessageConverter();
		HttpMessageConverters.ClientBuilder withOwn = HttpMessageConverters.forClient();
		before.applyTo(withOwn);
		withOwn.withJsonConverter(own);
		assertThat(list(withOwn.build())).contains(own).doesNotContain(this.json);
	}

	@Test
	void fromFramework707AClientGetsExactlyTheSetsInstances() {
		SharedClientConverters set = SharedClientConverters.build(this.json, List.of());
		HttpMessageConverters.ClientBuilder client = HttpMessageConverters.forClient();
		set.applyTo(client);
		List<HttpMessageConverter<?>> converters = list(client.build());
		assertThat(converters).containsAll(set.converters());
		assertThat(converters).noneMatch(ResourceHttpMessageConverter.class::isInstance);
	}

	@Test
	void aSetThatLostJsonAndTextIsNotUsedAndSaysWhatItLacked() {
		// Framework 7.0.5's behaviour, reproduced: with the defaults off, the String and
		// JSON converters configured on the builder are not in what it builds.
		Supplier<HttpMessageConverters.ClientBuilder> losing = () -> losingConfiguredConverters(
				HttpMessageConverters.forClient());
		SharedClientConverters set = SharedClientConverters.build(this.json, List.of(), losing, true);
		assertThat(set.isComplete()).isFalse();
		assertThat(set.missing()).contains("JSON objects (application/json)", "text (text/plain)");
		// The clients get their usual converters instead: JSON works.
		assertThat(set.converters()).anyMatch((converter) -> converter.canWrite(Map.class, MediaType.APPLICATION_JSON));
		assertThat(set.converters()).anyMatch(ResourceHttpMessageConverter.class::isInstance);
	}

	@Test
	void theGuardNamesAConverterOfTheApplicationsThatTheSetLacks() {
		HttpMessageConverter<?> applications = new ApplicationConverter();
		List<HttpMessageConverter<?>> usual = new ArrayList<>(
				List.of(new StringHttpMessageConverter(), this.json, applications, new ResourceHttpMessageConverter()));
		List<HttpMessageConverter<?>> set = List.of(new StringHttpMessageConverter(), this.json);
		assertThat(ConvertersGuard.missing(set, usual)).containsExactly(ApplicationConverter.class.getName());
		assertThat(ConvertersGuard.missing(usual, usual)).isEmpty();
		// Resources are left out on purpose: not missing.
		usual.remove(applications);
		assertThat(ConvertersGuard.missing(set, usual)).isEmpty();
	}

	private static List<HttpMessageConverter<?>> list(HttpMessageConverters converters) {
		List<HttpMessageConverter<?>> list = new ArrayList<>();
		converters.forEach(list::add);
		return list;
	}

	/**
	 * A builder that, like Framework 7.0.5's, ignores the String and JSON converters
	 * configured on it once its defaults are off.
	 */
	private static HttpMessageConverters.ClientBuilder losingConfiguredConverters(
			HttpMessageConverters.ClientBuilder target) {
		boolean[] defaultsOff = { false };
		List<Runnable> configured = new ArrayList<>();
		return (HttpMessageConverters.ClientBuilder) Proxy.newProxyInstance(
				SharedClientConvertersTests.class.getClassLoader(),
				new Class<?>[] { HttpMessageConverters.ClientBuilder.class }, (proxy, method, args) -> {
					switch (method.getName()) {
						case "disableDefaults" -> defaultsOff[0] = true;
						case "withStringConverter", "withJsonConverter" -> {
							configured.add(() -> invoke(method, target, args));
							return proxy;
						}
						case "build" -> {
							if (!defaultsOff[0]) {
								configured.forEach(Runnable::run);
							}
						}
						default -> {
						}
					}
					Object result = invoke(method, target, args);
					return (result == target) ? proxy : result;
				});
	}

	private static Object invoke(java.lang.reflect.Method method, Object target, Object[] args) {
		try {
			return method.invoke(target, args);
		}
		catch (IllegalAccessException | InvocationTargetException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** A converter of the application's own, for a media type of its own. */
	static final class ApplicationConverter extends StringHttpMessageConverter {

		ApplicationConverter() {
			setSupportedMediaTypes(List.of(new MediaType("application", "x-orders")));
		}

	}

}
