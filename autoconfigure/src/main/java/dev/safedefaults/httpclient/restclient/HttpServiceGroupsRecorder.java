package dev.safedefaults.httpclient.restclient;

import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

import dev.safedefaults.httpclient.DefaultOnlyConverters;
import dev.safedefaults.httpclient.FrameworkClientBuilders;
import dev.safedefaults.httpclient.SharedClientConverters;
import dev.safedefaults.httpclient.restclient.RestClientBuilds.GroupConverters;
import org.jspecify.annotations.Nullable;

import org.springframework.core.Ordered;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.io.Resource;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.support.RestClientHttpServiceGroupConfigurer;
import org.springframework.web.service.annotation.HttpExchange;
import org.springframework.web.service.registry.HttpServiceGroup;

/**
 * Looks at the converters each HTTP service group's client ends up with, as the client is
 * built at startup: after every other group configurer (it is ordered last) and after
 * every converters configurer, it reads the final list. Reading it changes nothing.
 * <p>
 * It observes through a converters configurer, and a builder with none registers
 * Framework's defaults, with one it does not (spring-framework #36747). So it observes
 * only when the builder already has one: the shared set's, or Boot's own customizer's,
 * which exists whenever the application has a
 * {@code ClientHttpMessageConvertersCustomizer}.
 */
final class HttpServiceGroupsRecorder implements RestClientHttpServiceGroupConfigurer {

	private static final Set<Class<?>> PLAIN = Set.of(void.class, Void.class, String.class, byte[].class, Object.class);

	private final RestClientBuilds builds;

	private final @Nullable Supplier<SharedClientConverters> shared;

	private final Supplier<Boolean> buildersHaveAConfigurer;

	HttpServiceGroupsRecorder(RestClientBuilds builds, @Nullable Supplier<SharedClientConverters> shared,
			Supplier<Boolean> buildersHaveAConfigurer) {
		this.builds = builds;
		this.shared = shared;
		this.buildersHaveAConfigurer = buildersHaveAConfigurer;
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

	@Override
	public void configureGroups(Groups<RestClient.Builder> groups) {
		if ((this.shared == null && !this.buildersHaveAConfigurer.get())
				|| !FrameworkClientBuilders.hasListConfigurer()) {
			// Without a list configurer (Framework before 7.0.3) the final list cannot be
			// read.
			return;
		}
		groups.forEachClient((group, builder) -> builder.configureMessageConverters((converters) -> converters
			.configureMessageConvertersList((list) -> this.builds.groupBuilt(describe(group, list)))));
	}

	private GroupConverters describe(HttpServiceGroup group, List<HttpMessageConverter<?>> converters) {
		boolean json = converters.stream().anyMatch(SharedClientConverters::isJson);
		List<Object> sharedInstances = (this.shared != null) ? List.copyOf(this.shared.get().converters()) : List.of();
		boolean usesShared = !sharedInstances.isEmpty() && containsSame(converters, sharedInstances);
		Set<String> defaults = new TreeSet<>();
		for (HttpMessageConverter<?> converter : converters) {
			if (DefaultOnlyConverters.isDefaultOnly(converter)) {
				defaults.add(converter.getClass().getSimpleName());
			}
		}
		return new GroupConverters(group.name(), exchangesObjects(group.httpServiceTypes()), json, usesShared,
				List.copyOf(defaults));
	}

	private static boolean containsSame(List<HttpMessageConverter<?>> converters, Collection<Object> expected) {
		for (Object one : expected) {
			if (converters.stream().noneMatch((converter) -> converter == one)) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Whether one of the interfaces sends or receives an object that needs a converter
	 * for JSON: a body parameter or a result other than a string, bytes, a resource or
	 * nothing (unwrapping {@code ResponseEntity}, {@code HttpEntity} and
	 * {@code Optional}).
	 */
	static boolean exchangesObjects(Collection<Class<?>> types) {
		for (Class<?> type : types) {
			for (Method method : type.getMethods()) {
				if (!AnnotatedElementUtils.hasAnnotation(method, HttpExchange.class)) {
					continue;
				}
				if (isObject(ResolvableType.forMethodReturnType(method))) {
					return true;
				}
				Parameter[] parameters = method.getParameters();
				for (int i = 0; i < parameters.length; i++) {
					if (parameters[i].isAnnotationPresent(RequestBody.class)
							&& isObject(ResolvableType.forMethodParameter(method, i))) {
						return true;
					}
				}
			}
		}
		return false;
	}

	private static boolean isObject(ResolvableType type) {
		ResolvableType unwrapped = type;
		List<Class<?>> wrappers = List.of(HttpEntity.class, Optional.class);
		boolean changed = true;
		while (changed) {
			changed = false;
			for (Class<?> wrapper : wrappers) {
				ResolvableType as = unwrapped.as(wrapper);
				if (as != ResolvableType.NONE && as.hasGenerics()) {
					unwrapped = as.getGeneric(0);
					changed = true;
				}
			}
		}
		Class<?> resolved = unwrapped.resolve(Object.class);
		return !PLAIN.contains(resolved) && !Resource.class.isAssignableFrom(resolved)
				&& !HttpHeaders.class.isAssignableFrom(resolved);
	}

}
