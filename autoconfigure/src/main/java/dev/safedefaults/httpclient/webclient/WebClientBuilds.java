package dev.safedefaults.httpclient.webclient;

import java.util.List;
import java.util.Set;

import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.httpclient.PerRequestBuilds;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;

/**
 * Counts the clients made from Boot's {@code WebClient.Builder} once the application is
 * ready, as {@code RestClient}'s are ({@link PerRequestBuilds}: every builder handed out
 * and every client built, the first few callers named; at 20, then every tenfold, the
 * {@code webclient.per-request-build} finding is published with the counts).
 * <p>
 * Boot's {@code WebClient.Builder} is a prototype bean; Boot's
 * {@code WebClientCodecCustomizer} hands it a codecs configurer that runs every
 * {@code CodecCustomizer} on each {@code build()}, which then makes a new
 * {@code ExchangeStrategies} with new codecs (Framework's
 * {@code DefaultWebClientBuilder.initExchangeStrategies}).
 */
final class WebClientBuilds implements ApplicationListener<ApplicationReadyEvent> {

	static final String SOURCE = "webclient.per-request-build";

	static final String SUBJECT = "Boot's WebClient.Builder";

	private final PerRequestBuilds builds;

	private volatile boolean buildsCounted;

	WebClientBuilds(ObjectProvider<FindingsStore> store) {
		this.builds = new PerRequestBuilds(Set.of(WebClientBuilds.class, CountingWebClientCustomizer.class),
				(handedOut, built, callers) -> report(store, handedOut, built, callers));
	}

	@Override
	public void onApplicationEvent(ApplicationReadyEvent event) {
		this.builds.ready();
	}

	/**
	 * Called for every builder Boot hands out (and every HTTP service group's builder).
	 */
	void builderHandedOut() {
		this.builds.builderHandedOut();
	}

	/**
	 * Called for every client built from a builder whose codecs are made on each build.
	 */
	void clientBuilt() {
		this.buildsCounted = true;
		this.builds.clientBuilt();
	}

	/**
	 * Builders handed out since the application was ready.
	 * @return the count
	 */
	long handedOutAfterReady() {
		return this.builds.handedOutAfterReady();
	}

	/**
	 * Clients built since the application was ready.
	 * @return the count
	 */
	long builtAfterReady() {
		return this.builds.builtAfterReady();
	}

	private void report(ObjectProvider<FindingsStore> store, long handedOut, long built, String callers) {
		FindingsStore findings = store.getIfAvailable();
		if (findings == null) {
			return;
		}
		String builds = this.buildsCounted
				? built + " clients were built from it, each running every CodecCustomizer again and making new codecs "
						+ "(the JSON encoder and decoder, every default reader and writer)"
				: "its builds were not counted (no CodecCustomizer: its clients share Framework's default codecs, but "
						+ "each is a new client)";
		Finding finding = WebClientFindings.PER_REQUEST_BUILD.raise(SUBJECT, handedOut, builds, callers);
		findings.publish(SOURCE, List.of(finding));
	}

}
