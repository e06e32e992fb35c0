package dev.safedefaults.httpclient;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.HttpMessageConverters;

/**
 * A client converters builder that hands every call to Framework's own and remembers what
 * was configured on it: the custom converters in order and the converter of each named
 * slot. A proxy of the interface, so that it has exactly the methods of the Framework
 * version at run time (7.0.5 added {@code disableDefaults()}, 7.0.3
 * {@code configureMessageConvertersList}); a customizer calling one the version lacks
 * fails as it would without the starter.
 */
final class RecordingClientBuilder implements InvocationHandler {

	private final HttpMessageConverters.ClientBuilder target;

	private final HttpMessageConverters.ClientBuilder proxy;

	private final List<HttpMessageConverter<?>> custom = new ArrayList<>();

	private final Map<ConverterSlot, HttpMessageConverter<?>> slots = new EnumMap<>(ConverterSlot.class);

	RecordingClientBuilder(HttpMessageConverters.ClientBuilder target) {
		this.target = target;
		this.proxy = (HttpMessageConverters.ClientBuilder) Proxy.newProxyInstance(
				RecordingClientBuilder.class.getClassLoader(),
				new Class<?>[] { HttpMessageConverters.ClientBuilder.class }, this);
	}

	/**
	 * The builder to configure.
	 * @return the recording builder
	 */
	HttpMessageConverters.ClientBuilder builder() {
		return this.proxy;
	}

	/**
	 * Framework's builder behind it, to build from.
	 * @return the builder every call went to
	 */
	HttpMessageConverters.ClientBuilder target() {
		return this.target;
	}

	List<HttpMessageConverter<?>> custom() {
		return this.custom;
	}

	Map<ConverterSlot, HttpMessageConverter<?>> slots() {
		return this.slots;
	}

	/**
	 * Every converter configured on the builder, by identity.
	 * @return the configured instances
	 */
	Set<HttpMessageConverter<?>> configured() {
		Set<HttpMessageConverter<?>> configured = Collections.newSetFromMap(new IdentityHashMap<>());
		configured.addAll(this.custom);
		configured.addAll(this.slots.values());
		return configured;
	}

	@Override
	public @Nullable Object invoke(Object proxy, Method method, @Nullable Object[] args) throws Throwable {
		if (args != null && args.length == 1 && args[0] instanceof HttpMessageConverter<?> converter) {
			ConverterSlot slot = ConverterSlot.filledBy(method.getName());
			if (slot != null) {
				this.slots.put(slot, converter);
			}
			else if (method.getName().equals("addCustomConverter")) {
				this.custom.add(converter);
			}
		}
		Object result;
		try {
			result = method.invoke(this.target, args);
		}
		catch (InvocationTargetException ex) {
			throw ex.getTargetException();
		}
		return (result == this.target) ? this.proxy : result;
	}

}
