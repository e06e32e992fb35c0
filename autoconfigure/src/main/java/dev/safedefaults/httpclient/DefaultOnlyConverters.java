package dev.safedefaults.httpclient;

import java.util.List;

import org.springframework.http.converter.HttpMessageConverter;

/**
 * The converters that only Framework's default list brings to a client, never the
 * starter's shared set: resources, XML, Smile, CBOR, YAML, feeds (Jackson 3's and the
 * deprecated Jackson 2 variants). One list for the Feign and the RestClient checks. By
 * name: most of them need a library the application may not have. Framework has no API
 * that tells a default converter apart from one the application configured, so the list
 * is Framework's own (its {@code DefaultHttpMessageConverters}, checked against 7.0.1 and
 * 7.0.10);
 * {@code HttpClientConvertersAutoConfigurationTests#everyConverterOfFrameworksDefaultListIsInTheSharedSetsKindsOrKnownAsDefaultOnly}
 * fails when Framework's defaults bring a converter the list does not know.
 */
public final class DefaultOnlyConverters {

	private static final List<String> DEFAULT_ONLY = List.of(
			"org.springframework.http.converter.ResourceHttpMessageConverter",
			"org.springframework.http.converter.ResourceRegionHttpMessageConverter",
			"org.springframework.http.converter.xml.AbstractXmlHttpMessageConverter",
			"org.springframework.http.converter.xml.SourceHttpMessageConverter",
			"org.springframework.http.converter.xml.JacksonXmlHttpMessageConverter",
			"org.springframework.http.converter.xml.MappingJackson2XmlHttpMessageConverter",
			"org.springframework.http.converter.smile.JacksonSmileHttpMessageConverter",
			"org.springframework.http.converter.smile.MappingJackson2SmileHttpMessageConverter",
			"org.springframework.http.converter.cbor.JacksonCborHttpMessageConverter",
			"org.springframework.http.converter.cbor.MappingJackson2CborHttpMessageConverter",
			"org.springframework.http.converter.yaml.JacksonYamlHttpMessageConverter",
			"org.springframework.http.converter.yaml.MappingJackson2YamlHttpMessageConverter",
			"org.springframework.http.converter.feed.AtomFeedHttpMessageConverter",
			"org.springframework.http.converter.feed.RssChannelHttpMessageConverter");

	private DefaultOnlyConverters() {
	}

	/**
	 * Whether a converter is one that only Framework's default list brings.
	 * @param converter a client's converter
	 * @return {@code true} for it or a subclass of one
	 */
	public static boolean isDefaultOnly(HttpMessageConverter<?> converter) {
		for (Class<?> type = converter.getClass(); type != null; type = type.getSuperclass()) {
			if (DEFAULT_ONLY.contains(type.getName())) {
				return true;
			}
		}
		return false;
	}

}
