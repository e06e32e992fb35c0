package dev.safedefaults.httpclient;

import org.jspecify.annotations.Nullable;

import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.HttpMessageConverters;

/**
 * The named slots of Framework's client converters builder, each filled by its
 * {@code withXxxConverter} method, all of which Framework 7.0.1 already has. A converter
 * handed over in its slot takes the place of the default Framework would detect for it.
 */
enum ConverterSlot {

	STRING("withStringConverter"),

	KOTLIN_JSON("withKotlinSerializationJsonConverter"),

	JSON("withJsonConverter"),

	XML("withXmlConverter"),

	SMILE("withSmileConverter"),

	KOTLIN_CBOR("withKotlinSerializationCborConverter"),

	CBOR("withCborConverter"),

	YAML("withYamlConverter");

	private final String method;

	ConverterSlot(String method) {
		this.method = method;
	}

	/**
	 * The slot a builder method fills.
	 * @param method the name of a method of {@code HttpMessageConverters.ClientBuilder}
	 * @return the slot, {@code null} for a method that fills none
	 */
	static @Nullable ConverterSlot filledBy(String method) {
		for (ConverterSlot slot : values()) {
			if (slot.method.equals(method)) {
				return slot;
			}
		}
		return null;
	}

	/**
	 * Puts a converter in this slot of a builder.
	 * @param builder the builder
	 * @param converter the converter
	 */
	void fill(HttpMessageConverters.ClientBuilder builder, HttpMessageConverter<?> converter) {
		switch (this) {
			case STRING -> builder.withStringConverter(converter);
			case KOTLIN_JSON -> builder.withKotlinSerializationJsonConverter(converter);
			case JSON -> builder.withJsonConverter(converter);
			case XML -> builder.withXmlConverter(converter);
			case SMILE -> builder.withSmileConverter(converter);
			case KOTLIN_CBOR -> builder.withKotlinSerializationCborConverter(converter);
			case CBOR -> builder.withCborConverter(converter);
			case YAML -> builder.withYamlConverter(converter);
		}
	}

}
