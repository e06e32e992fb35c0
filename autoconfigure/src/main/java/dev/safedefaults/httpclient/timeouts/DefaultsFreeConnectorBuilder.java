package dev.safedefaults.httpclient.timeouts;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.http.client.reactive.ClientHttpConnectorBuilder;
import org.springframework.http.client.reactive.ClientHttpConnector;

/**
 * The application's own {@link ClientHttpConnectorBuilder} (one that is none of Boot's
 * four typed builders: a lambda of the application's, or one a
 * {@code ClientHttpConnectorBuilderCustomizer} returned), given the settings without the
 * starter's default timeouts: the reactive twin of {@link DefaultsFreeBuilder}. Boot
 * builds its {@code WebClient.Builder}'s connector with this builder and Boot's settings;
 * the application's code decides what its connector does with them, and sees only the
 * values the application set. Loaded only when Boot's reactive client support is on the
 * class path ({@link ReactiveConnectors}).
 *
 * @param <T> the connector type
 */
final class DefaultsFreeConnectorBuilder<T extends ClientHttpConnector> implements ClientHttpConnectorBuilder<T> {

	private final ClientHttpConnectorBuilder<T> builder;

	private final TimeoutDecisions decisions;

	DefaultsFreeConnectorBuilder(ClientHttpConnectorBuilder<T> builder, TimeoutDecisions decisions) {
		this.builder = builder;
		this.decisions = decisions;
	}

	@Override
	public T build(@Nullable HttpClientSettings settings) {
		return this.builder.build((settings != null) ? this.decisions.withoutDefaults(settings) : null);
	}

	@Override
	public String toString() {
		return "DefaultsFreeConnectorBuilder[" + this.builder + "]";
	}

}
