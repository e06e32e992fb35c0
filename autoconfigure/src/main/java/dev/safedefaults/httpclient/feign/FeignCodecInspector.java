package dev.safedefaults.httpclient.feign;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;

import feign.codec.Decoder;
import feign.codec.Encoder;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeanUtils;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.beans.factory.ObjectFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.cloud.openfeign.FeignClientFactory;
import org.springframework.cloud.openfeign.FeignClientProperties.FeignClientConfiguration;
import org.springframework.cloud.openfeign.FeignClientProperties;
import org.springframework.cloud.openfeign.FeignClientSpecification;
import org.springframework.cloud.openfeign.clientconfig.FeignClientConfigurer;
import org.springframework.cloud.openfeign.support.FeignHttpMessageConverters;
import org.springframework.core.ResolvableType;
import org.springframework.http.converter.HttpMessageConverter;

/**
 * Finds, for every Feign client, where its encoder and decoder get their converters from,
 * and whether that source yields a new converters object per call. It never sends a
 * request: asking the client factory for a client's codec creates the client's context
 * (clients injected {@code @Lazy} or resolving their URL lazily have none at startup),
 * nothing more.
 * <p>
 * Clients are enumerated from the {@link FeignClientSpecification}s, not from the
 * contexts that happen to exist. A codec configured by properties
 * ({@code spring.cloud.openfeign.client.config.<name|default>.encoder/decoder}) is
 * resolved as OpenFeign resolves it. Codecs are unwrapped through every field that holds
 * another encoder or decoder ({@code OptionalDecoder}, {@code ResponseEntityDecoder},
 * {@code PageableSpringEncoder}, anyone's own wrapper) down to the
 * {@code ObjectFactory}/{@code ObjectProvider}/{@code Supplier} fields that yield
 * converters; each is asked twice.
 * <p>
 * One instance serves both Feign checks and inspects the clients once: asking a provider
 * for converters runs the application's code (a factory's {@code getObject()}), which
 * must not run again for every check that reads the result.
 */
final class FeignCodecInspector {

	private static final int MAX_DEPTH = 8;

	private static final String LEGACY_BOOT_CONVERTERS = "org.springframework.boot.http.converter.autoconfigure.HttpMessageConverters";

	private final ListableBeanFactory beanFactory;

	private final ObjectProvider<FeignClientFactory> clientFactories;

	private final ObjectProvider<FeignClientProperties> clientProperties;

	private volatile @Nullable List<ClientCodecs> inspected;

	FeignCodecInspector(ListableBeanFactory beanFactory, ObjectProvider<FeignClientFactory> clientFactories,
			ObjectProvider<FeignClientProperties> clientProperties) {
		this.beanFactory = beanFactory;
		this.clientFactories = clientFactories;
		this.clientProperties = clientProperties;
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
	 * Inspects every client, the first time it is called; later calls return the same
	 * result (the startup checks run once).
	 * @return one result per client, sorted by name
	 */
	List<ClientCodecs> inspectAll() {
		List<ClientCodecs> result = this.inspected;
		if (result == null) {
			synchronized (this) {
				result = this.inspected;
				if (result == null) {
					result = List.copyOf(inspectEveryClient());
					this.inspected = result;
				}
			}
		}
		return result;
	}

	private List<ClientCodecs> inspectEveryClient() {
		FeignClientFactory clientFactory = this.clientFactories.getIfAvailable();
		FeignClientProperties properties = this.clientProperties.getIfAvailable();
		List<ClientCodecs> result = new ArrayList<>();
		if (clientFactory == null) {
			return result;
		}
		for (String name : clientNames(this.beanFactory)) {
			try {
				result.add(inspect(name, clientFactory, properties));
			}
			catch (RuntimeException | LinkageError ex) {
				result.add(new ClientCodecs(name, List.of(), ex));
			}
		}
		return result;
	}

	private ClientCodecs inspect(String client, FeignClientFactory clientFactory,
			@Nullable FeignClientProperties properties) {
		Object encoder = codec(client, clientFactory, properties, Encoder.class, FeignClientConfiguration::getEncoder);
		Object decoder = codec(client, clientFactory, properties, Decoder.class, FeignClientConfiguration::getDecoder);
		List<ConvertersSource> sources = new ArrayList<>();
		Set<Object> visited = Collections.newSetFromMap(new IdentityHashMap<>());
		walk("encoder", encoder, simpleName(encoder), visited, 0, sources);
		walk("decoder", decoder, simpleName(decoder), visited, 0, sources);
		return new ClientCodecs(client, sources, null);
	}

	/**
	 * The codec OpenFeign gives the client: the one configured by properties when there
	 * is one (they win over the context's bean, see
	 * {@code FeignClientFactoryBean.configureUsingProperties}), else the context's bean.
	 */
	private <T> @Nullable Object codec(String client, FeignClientFactory clientFactory,
			@Nullable FeignClientProperties properties, Class<T> type,
			Function<FeignClientConfiguration, @Nullable Class<? extends T>> configured) {
		Object bean = clientFactory.getInstance(client, type);
		FeignClientConfigurer configurer = clientFactory.getInstance(client, FeignClientConfigurer.class);
		if (properties == null || (configurer != null && !configurer.inheritParentConfiguration())) {
			return bean;
		}
		Class<? extends T> codecClass = configuredClass(client, properties, configured);
		return (codecClass != null) ? getOrInstantiate(codecClass) : bean;
	}

	private static <T> @Nullable Class<? extends T> configuredClass(String client, FeignClientProperties properties,
			Function<FeignClientConfiguration, @Nullable Class<? extends T>> configured) {
		Map<String, FeignClientConfiguration> config = properties.getConfig();
		FeignClientConfiguration own = config.get(client);
		if (own != null && configured.apply(own) != null) {
			return configured.apply(own);
		}
		FeignClientConfiguration defaults = config.get(properties.getDefaultConfig());
		return (defaults != null) ? configured.apply(defaults) : null;
	}

	private Object getOrInstantiate(Class<?> type) {
		try {
			return this.beanFactory.getBean(type);
		}
		catch (NoSuchBeanDefinitionException ex) {
			return BeanUtils.instantiateClass(type);
		}
	}

	private void walk(String codec, @Nullable Object target, String path, Set<Object> visited, int depth,
			List<ConvertersSource> sources) {
		if (target == null || depth > MAX_DEPTH || !visited.add(target)) {
			return;
		}
		for (Class<?> type = target.getClass(); type != null && !isPlatform(type); type = type.getSuperclass()) {
			for (Field field : type.getDeclaredFields()) {
				if (Modifier.isStatic(field.getModifiers()) || field.getType().isPrimitive()
						|| !field.trySetAccessible()) {
					continue;
				}
				Object value = read(field, target);
				String fieldPath = path + "." + field.getName();
				if (value instanceof Encoder || value instanceof Decoder) {
					walk(codec, value, fieldPath + " > " + simpleName(value), visited, depth + 1, sources);
				}
				else if (value instanceof FeignHttpMessageConverters converters && visited.add(converters)) {
					sources.add(probeConverters(codec, fieldPath, converters));
				}
				else if (value instanceof ObjectFactory<?> factory && mayYieldConverters(field, ObjectFactory.class)) {
					probe(codec, fieldPath, value, factory::getObject, sources);
				}
				else if (value instanceof Supplier<?> supplier && mayYieldConverters(field, Supplier.class)) {
					probe(codec, fieldPath, value, supplier::get, sources);
				}
			}
		}
	}

	private static @Nullable Object read(Field field, Object target) {
		try {
			return field.get(target);
		}
		catch (IllegalAccessException ex) {
			return null;
		}
	}

	/**
	 * Whether a factory field may yield converters: its declared type argument is a
	 * converters type, or is not known (raw, wildcard, a type variable).
	 */
	private static boolean mayYieldConverters(Field field, Class<?> factoryType) {
		Class<?> yielded = ResolvableType.forField(field).as(factoryType).getGeneric(0).resolve();
		return yielded == null || yielded == Object.class || FeignHttpMessageConverters.class.isAssignableFrom(yielded)
				|| Iterable.class.isAssignableFrom(yielded);
	}

	private void probe(String codec, String path, Object factory, Supplier<?> get, List<ConvertersSource> sources) {
		Object first;
		Object second;
		try {
			first = get.get();
			second = get.get();
		}
		catch (RuntimeException ex) {
			return;
		}
		if (first == null || !isConverters(first)) {
			return;
		}
		boolean newPerCall = first != second;
		String description = path + " (" + factory.getClass().getName() + ")";
		if (!newPerCall && first instanceof FeignHttpMessageConverters converters) {
			ConvertersSource source = probeConverters(codec, description, converters);
			sources.add(source);
			return;
		}
		sources.add(new ConvertersSource(codec, description, newPerCall, first, convertersOf(first)));
	}

	private static ConvertersSource probeConverters(String codec, String path, FeignHttpMessageConverters converters) {
		List<HttpMessageConverter<?>> first = converters.getConverters();
		List<HttpMessageConverter<?>> second = converters.getConverters();
		return new ConvertersSource(codec, path, first != second, converters, first);
	}

	private static boolean isConverters(Object candidate) {
		if (candidate instanceof FeignHttpMessageConverters
				|| candidate instanceof org.springframework.http.converter.HttpMessageConverters) {
			return true;
		}
		if (candidate instanceof Iterable<?> iterable) {
			for (Object element : iterable) {
				return element instanceof HttpMessageConverter;
			}
		}
		return isLegacyBootConverters(candidate.getClass());
	}

	private static boolean isLegacyBootConverters(Class<?> type) {
		for (Class<?> candidate = type; candidate != null; candidate = candidate.getSuperclass()) {
			if (LEGACY_BOOT_CONVERTERS.equals(candidate.getName())) {
				return true;
			}
		}
		return false;
	}

	private static List<HttpMessageConverter<?>> convertersOf(Object converters) {
		if (converters instanceof FeignHttpMessageConverters feign) {
			return feign.getConverters();
		}
		List<HttpMessageConverter<?>> list = new ArrayList<>();
		if (converters instanceof Iterable<?> iterable) {
			for (Object element : iterable) {
				if (element instanceof HttpMessageConverter<?> converter) {
					list.add(converter);
				}
			}
		}
		return list;
	}

	private static boolean isPlatform(Class<?> type) {
		String name = type.getName();
		return type == Object.class || name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.")
				|| name.startsWith("sun.") || name.startsWith("com.sun.");
	}

	private static String simpleName(@Nullable Object codec) {
		if (codec == null) {
			return "none";
		}
		Class<?> type = codec.getClass();
		String name = type.getSimpleName();
		return name.isEmpty() ? type.getName() : name;
	}

	/**
	 * What one client's codecs get their converters from.
	 *
	 * @param client the client's name
	 * @param sources every converters source found in its encoder and decoder
	 * @param failure why the client could not be inspected, or {@code null}
	 */
	record ClientCodecs(String client, List<ConvertersSource> sources, @Nullable Throwable failure) {
	}

	/**
	 * One place a codec gets converters from.
	 *
	 * @param codec {@code encoder} or {@code decoder}
	 * @param path where it was found, from the codec down to the field
	 * @param newPerCall whether asking twice gave two different converters objects (or
	 * lists)
	 * @param converters the converters object it yielded
	 * @param list the converters in it
	 */
	record ConvertersSource(String codec, String path, boolean newPerCall, Object converters,
			List<HttpMessageConverter<?>> list) {
	}

}
