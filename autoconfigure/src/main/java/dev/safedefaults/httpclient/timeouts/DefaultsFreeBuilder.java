package dev.safedefaults.httpclient.timeouts;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.http.client.ClientHttpRequestFactory;

/**
 * The application's own {@link ClientHttpRequestFactoryBuilder}, given the settings
 * without the starter's default timeouts: Boot's builder from
 * {@code ClientHttpRequestFactoryBuilder.of(supplier)} sets the settings' timeouts on the
 * factory the application made, by reflection, replacing the application's values and
 * failing the start for a factory without {@code setConnectTimeout} (issue 43). Every
 * value the application set reaches it unchanged.
 *
 * @param <T> the factory type
 */
final class DefaultsFreeBuilder<T extends ClientHttpRequestFactory> implements ClientHttpRequestFactoryBuilder<T> {

	private final ClientHttpRequestFactoryBuilder<T> builder;

	private final TimeoutDecisions decisions;

	DefaultsFreeBuilder(ClientHttpRequestFactoryBuilder<T> builder, TimeoutDecisions decisions) {
		this.builder = builder;
		this.decisions = decisions;
	}

	@Override
	public T build(@Nullable HttpClientSettings settings) {
		return this.builder.build((settings != null) ? this.decisions.withoutDefaults(settings) : null);
	}

	@Override
	public String toString() {
		return "DefaultsFreeBuilder[" + this.builder + "]";
	}

}
