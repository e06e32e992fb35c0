package dev.safedefaults.httpclient.webclient;

import java.time.Duration;
import java.util.List;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FeatureStatus;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.httpclient.PerRequestBuilds;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.http.codec.autoconfigure.CodecsAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.webclient.WebClientCustomizer;
import org.springframework.boot.webclient.autoconfigure.WebClientAutoConfiguration;
import org.springframework.web.reactive.function.client.WebClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code webclient.per-request-build}: Boot's {@code WebClient.Builder} asked for and
 * built per request once the application is ready is named with its caller, as
 * {@code RestClient}'s builder is; clients built once at startup are silent; without
 * WebClient on the class path there is nothing. The finding's text is
 * {@code WebClientFindings}' declaration (its counts and callers asserted here), and
 * {@code WebClientFeatureStatus} says the builder is watched, that the library is absent,
 * or that {@code WebClientProperties}' switch is off (then nothing is added to Boot's
 * builder).
 */
@Tag("reactive")
class WebClientBuildsAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withPropertyValues("safe-defaults.checks.enabled=false")
		.withConfiguration(AutoConfigurations.of(SafeDefaultsAutoConfiguration.class,
				WebClientBuildsAutoConfiguration.class, JacksonAutoConfiguration.class, CodecsAutoConfiguration.class,
				WebClientAutoConfiguration.class));

	@Test
	void aClientBuiltPerRequestIsReportedWithItsCallerAndTheCodecsItMadeAgain() {
		this.runner.run((context) -> {
			ready(context);
			PerRequestHandler handler = new PerRequestHandler(context.getBeanProvider(WebClient.Builder.class));
			for (int i = 0; i < PerRequestBuilds.FIRST_REPORT; i++) {
				handler.handle();
			}
			assertThat(findings(context)).singleElement().satisfies((finding) -> {
				assertThat(finding.subject()).isEqualTo("Boot's WebClient.Builder");
				assertThat(finding.message()).contains("handed out 20 times and 19 clients were built from it, each "
						+ "running every CodecCustomizer again and making new codecs (the JSON encoder and decoder, every "
						+ "default reader and writer) (callers: {" + PerRequestHandler.class.getName() + ".handle:");
			});
		});
	}

	@Test
	void aClientBuiltOnceAtStartupIsNotReported() {
		this.runner.run((context) -> {
			WebClient client = context.getBean(WebClient.Builder.class).build();
			ready(context);
			for (int i = 0; i < 2 * PerRequestBuilds.FIRST_REPORT; i++) {
				client.mutate();
			}
			assertThat(findings(context)).isEmpty();
			assertThat(context.getBean(WebClientBuilds.class).handedOutAfterReady()).isZero();
			assertThat(context.getBean(WebClientBuilds.class).builtAfterReady()).isZero();
		});
	}

	@Test
	void aCloneBuiltPerRequestIsCountedAsABuild() {
		this.runner.run((context) -> {
			WebClient.Builder builder = context.getBean(WebClient.Builder.class);
			ready(context);
			for (int i = 0; i < PerRequestBuilds.FIRST_REPORT; i++) {
				builder.clone().build();
			}
			assertThat(context.getBean(WebClientBuilds.class).builtAfterReady())
				.isEqualTo(PerRequestBuilds.FIRST_REPORT);
			assertThat(findings(context)).singleElement()
				.satisfies((finding) -> assertThat(finding.message()).contains("handed out 0 times and 20 clients"));
		});
	}

	@Test
	void withoutCodecCustomizersTheBuildersAreCountedAndNoCodecsConfigurerIsAdded() {
		new ApplicationContextRunner().withPropertyValues("safe-defaults.checks.enabled=false")
			.withConfiguration(AutoConfigurations.of(SafeDefaultsAutoConfiguration.class,
					WebClientBuildsAutoConfiguration.class, WebClientAutoConfiguration.class))
			.run((context) -> {
				ready(context);
				PerRequestHandler handler = new PerRequestHandler(context.getBeanProvider(WebClient.Builder.class));
				for (int i = 0; i < PerRequestBuilds.FIRST_REPORT; i++) {
					handler.handle();
				}
				assertThat(context.getBean(WebClientBuilds.class).builtAfterReady()).isZero();
				assertThat(findings(context)).singleElement()
					.satisfies((finding) -> assertThat(finding.message()).contains("handed out 20 times and its "
							+ "builds were not counted (no CodecCustomizer: its clients share Framework's default codecs, "
							+ "but each is a new client)"));
			});
	}

	@Test
	void theStatusSaysTheBuilderIsWatched() {
		this.runner.run((context) -> {
			assertThat(status(context).appliedTo()).containsExactly(
					"WebClient.Builder (clients built after startup are counted: webclient.per-request-build)");
			assertThat(status(context).shortForm()).isEqualTo("webclient(builder)");
		});
	}

	@Test
	void withoutWebClientThereIsNothingAndTheStatusSaysTheLibraryIsAbsent() {
		this.runner.withClassLoader(new FilteredClassLoader(WebClient.class)).run((context) -> {
			assertThat(context).hasNotFailed()
				.doesNotHaveBean(WebClientBuilds.class)
				.doesNotHaveBean(WebClientCustomizer.class);
			assertThat(status(context).enabled()).isFalse();
			assertThat(status(context).reason()).startsWith("library absent: spring-boot-webclient");
		});
	}

	@Test
	void switchedOffNothingIsAddedToBootsBuilderAndTheStatusSaysSo() {
		this.runner.withPropertyValues("safe-defaults.webclient.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(WebClientBuilds.class)
				.doesNotHaveBean(CountingWebClientCustomizer.class);
			assertThat(status(context).enabled()).isFalse();
			assertThat(status(context).reason()).startsWith("safe-defaults.webclient.enabled=false");
		});
	}

	@Test
	void withTheStarterSwitchedOffThereIsNothing() {
		this.runner.withPropertyValues("safe-defaults.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(WebClientBuilds.class)
				.doesNotHaveBean(CountingWebClientCustomizer.class));
	}

	private static void ready(AssertableApplicationContext context) {
		context.getBean(WebClientBuilds.class)
			.onApplicationEvent(new ApplicationReadyEvent(new SpringApplication(), new String[0],
					context.getSourceApplicationContext(), Duration.ZERO));
	}

	private static List<Finding> findings(AssertableApplicationContext context) {
		return context.getBean(FindingsStore.class)
			.findings()
			.stream()
			.filter((finding) -> finding.id().equals("webclient.per-request-build"))
			.toList();
	}

	private static FeatureStatus status(AssertableApplicationContext context) {
		return context.getBeansOfType(FeatureStatusReporter.class)
			.values()
			.stream()
			.map(FeatureStatusReporter::status)
			.filter((status) -> status.feature().equals("webclient"))
			.findFirst()
			.orElseThrow();
	}

	/**
	 * The trap: a builder asked for, and a client built, on every request.
	 */
	static final class PerRequestHandler {

		private final ObjectProvider<WebClient.Builder> builders;

		PerRequestHandler(ObjectProvider<WebClient.Builder> builders) {
			this.builders = builders;
		}

		WebClient handle() {
			return this.builders.getObject().baseUrl("http://127.0.0.1:1").build();
		}

	}

}
