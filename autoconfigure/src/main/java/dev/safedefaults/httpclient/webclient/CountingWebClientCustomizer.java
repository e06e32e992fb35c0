package dev.safedefaults.httpclient.webclient;

import java.util.function.BooleanSupplier;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.webclient.WebClientCustomizer;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * Applied by Boot to every {@code WebClient.Builder} it hands out (and to each HTTP
 * service group's builder): counts the builder and, where Boot's builder already makes
 * its codecs on each build (a {@code CodecCustomizer} is there, so Boot's codecs
 * configurer is on the builder), every client built from it, with a codecs configurer of
 * its own that only counts. Where no codecs are made per build it adds none: a codecs
 * configurer would make every build create the codecs that Framework's shared default
 * strategies spare it. Changes nothing else on the builder.
 */
final class CountingWebClientCustomizer implements WebClientCustomizer {

	private final WebClientBuilds builds;

	private final BooleanSupplier codecsPerBuild;

	/** Read once, at the first builder, when every bean is defined. */
	private volatile @Nullable Boolean codecsMadePerBuild;

	CountingWebClientCustomizer(WebClientBuilds builds, BooleanSupplier codecsPerBuild) {
		this.builds = builds;
		this.codecsPerBuild = codecsPerBuild;
	}

	@Override
	public void customize(WebClient.Builder builder) {
		this.builds.builderHandedOut();
		Boolean perBuild = this.codecsMadePerBuild;
		if (perBuild == null) {
			perBuild = this.codecsPerBuild.getAsBoolean();
			this.codecsMadePerBuild = perBuild;
		}
		if (perBuild) {
			builder.codecs((codecs) -> this.builds.clientBuilt());
		}
	}

}
