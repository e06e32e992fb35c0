package com.example.consumer;

import java.net.http.HttpClient;
import java.time.Duration;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.SimpleClientHttpRequestFactory;

/**
 * The application gives Boot its own request factory, made by a supplier with its own
 * read timeout ({@code consumer.own-factory=jdk} or {@code simple},
 * {@code consumer.own-read-timeout}): Boot then sets its settings' timeouts on that
 * factory by reflection. Issue 43: with the starter's defaults in Boot's settings the JDK
 * one failed the start, the simple one lost its read timeout to the starter's.
 */
@Configuration(proxyBeanMethods = false)
class OwnRequestFactory {

	@Bean
	@ConditionalOnProperty(name = "consumer.own-factory", havingValue = "jdk")
	ClientHttpRequestFactoryBuilder<JdkClientHttpRequestFactory> ownJdkFactory(
			@Value("${consumer.own-read-timeout}") Duration read) {
		return ClientHttpRequestFactoryBuilder.of(() -> {
			JdkClientHttpRequestFactory factory = new JdkClientHttpRequestFactory(
					HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build());
			factory.setReadTimeout(read);
			return factory;
		});
	}

	@Bean
	@ConditionalOnProperty(name = "consumer.own-factory", havingValue = "simple")
	ClientHttpRequestFactoryBuilder<SimpleClientHttpRequestFactory> ownSimpleFactory(
			@Value("${consumer.own-read-timeout}") Duration read) {
		return ClientHttpRequestFactoryBuilder.of(() -> {
			SimpleClientHttpRequestFactory factory = new SimpleClientHttpRequestFactory();
			factory.setReadTimeout(read);
			return factory;
		});
	}

}
