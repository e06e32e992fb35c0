package dev.safedefaults.httpclient.restclient;

import java.util.function.Supplier;

import dev.safedefaults.httpclient.SharedClientConverters;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.web.client.RestClient;

/**
 * Applied by Boot to every {@code RestClient.Builder} it hands out and to every HTTP
 * service group's builder. It counts the builder (see {@link RestClientBuilds}) and, with
 * the feature on, hands the builder the shared converters set: on every {@code build()}
 * the client's converters builder receives the same instances, in their slots, with the
 * defaults off, so nothing is created and nothing detected on the class path. What the
 * application configures on the builder afterwards (its own JSON converter, a custom
 * converter) still applies on top.
 * <p>
 * With the feature off it only counts: it adds no converters configurer, which would
 * switch Framework's defaults off (spring-framework #36747). Nor does it when the shared
 * set turned out incomplete ({@link SharedClientConverters#isComplete()}): the builder
 * then keeps Boot's own converters customizer ({@link BootsConvertersCustomizerStandIn}).
 */
final class SharedConvertersRestClientCustomizer implements RestClientCustomizer {

	private final @Nullable Supplier<SharedClientConverters> shared;

	private final RestClientBuilds builds;

	SharedConvertersRestClientCustomizer(@Nullable Supplier<SharedClientConverters> shared, RestClientBuilds builds) {
		this.shared = shared;
		this.builds = builds;
	}

	@Override
	public void customize(RestClient.Builder builder) {
		this.builds.builderHandedOut();
		Supplier<SharedClientConverters> converters = this.shared;
		if (converters == null) {
			return;
		}
		SharedClientConverters set = converters.get();
		if (set.isComplete()) {
			builder.configureMessageConverters((clientBuilder) -> {
				this.builds.clientBuilt();
				set.applyTo(clientBuilder);
			});
		}
	}

}
