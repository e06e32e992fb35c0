package dev.safedefaults.httpclient.timeouts;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FeatureStatus;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.testsupport.SilentDownstream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.service.HttpServiceClientPropertiesAutoConfiguration;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.restclient.RestTemplateBuilder;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestTemplateAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.service.HttpServiceClientAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.test.context.support.TestPropertySourceUtils;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.service.annotation.GetExchange;
import org.springframework.web.service.registry.ImportHttpServices;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Every client Boot builds gets a connect and a read timeout where the application sets
 * none, through Boot's own settings at the lowest precedence; whatever the application
 * sets wins; a client left without one is reported.
 */
class HttpClientTimeoutsAutoConfigurationTests {

	private static SilentDownstream silent;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withInitializer((context) -> new HttpClientTimeoutsDefaults().postProcessEnvironment(context.getEnvironment(),
				new SpringApplication()))
		.withConfiguration(AutoConfigurations.of(SafeDefaultsAutoConfiguration.class,
				HttpClientTimeoutsAutoConfiguration.class, HttpMessageConvertersAutoConfiguration.class,
				HttpClientAutoConfiguration.class, ImperativeHttpClientAutoConfiguration.class,
				RestClientAutoConfiguration.class, RestTemplateAutoConfiguration.class,
				HttpServiceClientPropertiesAutoConfiguration.class, HttpServiceClientAutoConfiguration.class))
		.withPropertyValues("spring.http.serviceclient.silent.base-url=" + silent.url());

	@BeforeAll
	static void startServer() throws IOException {
		silent = new SilentDownstream();
	}

	@AfterAll
	static void stopServer() throws IOException {
		silent.close();
	}

	@Test
	void bootsSettingsGetTenSecondsConnectAndSixtySecondsReadAndTheStatusSaysSo() {
		this.runner.run((context) -> {
			HttpClientSettings settings = context.getBean(HttpClientSettings.class);
			assertThat(settings.connectTimeout()).isEqualTo(Duration.ofSeconds(10));
			assertThat(settings.readTimeout()).isEqualTo(Duration.ofSeconds(60));
			FeatureStatus status = status(context);
			assertThat(status.shortForm()).isEqualTo("http-client-timeouts(10s/60s)");
			assertThat(status.appliedTo())
				.containsExactly("Boot's HTTP clients: connect 10s (safe-defaults), read 60s (safe-defaults)");
			assertThat(status.reason()).isNull();
			assertThat(findings(context)).isEmpty();
		});
	}

	@Test
	void aClientFromBootsBuilderGivesUpOnADownstreamThatNeverAnswers() {
		this.runner.withPropertyValues("safe-defaults.http-client-timeouts.read=300ms").run((context) -> {
			RestClient client = context.getBean(RestClient.Builder.class).baseUrl(silent.url()).build();
			assertGivesUpWithin(Duration.ofSeconds(5),
					() -> client.get().uri("/anything").retrieve().body(String.class));
		});
	}

	@Test
	void restTemplateBuilderAndEveryHttpServiceGroupGiveUpOnADownstreamThatNeverAnswers() {
		this.runner.withPropertyValues("safe-defaults.http-client-timeouts.read=300ms")
			.withUserConfiguration(SilentGroup.class)
			.run((context) -> {
				assertGivesUpWithin(Duration.ofSeconds(5), () -> context.getBean(SilentService.class).call());
				assertGivesUpWithin(Duration.ofSeconds(5),
						() -> context.getBean(RestTemplateBuilder.class)
							.build()
							.getForObject(silent.url() + "/anything", String.class));
				assertThat(status(context).appliedTo())
					.contains("HTTP service group 'silent': connect 10s (safe-defaults), read 300ms (safe-defaults)");
			});
	}

	@Test
	void theApplicationsGlobalKeysWinAndTheStatusSaysTheyWereKept() {
		this.runner.withPropertyValues("spring.http.clients.read-timeout=5s").run((context) -> {
			HttpClientSettings settings = context.getBean(HttpClientSettings.class);
			assertThat(settings.readTimeout()).isEqualTo(Duration.ofSeconds(5));
			assertThat(settings.connectTimeout()).isEqualTo(Duration.ofSeconds(10));
			FeatureStatus status = status(context);
			assertThat(status.appliedTo()).containsExactly(
					"Boot's HTTP clients: connect 10s (safe-defaults), read 5s (its own spring.http.clients.read-timeout)");
			assertThat(status.reason()).contains("kept their own");
		});
	}

	@Test
	void aGroupsOwnReadTimeoutWinsOverTheDefault() {
		this.runner
			.withPropertyValues("safe-defaults.http-client-timeouts.read=30s",
					"spring.http.serviceclient.silent.read-timeout=300ms")
			.withUserConfiguration(SilentGroup.class)
			.run((context) -> {
				assertGivesUpWithin(Duration.ofSeconds(5), () -> context.getBean(SilentService.class).call());
				assertThat(status(context).reason()).contains(
						"HTTP service group 'silent': connect 10s (safe-defaults), read 300ms (its own spring.http.serviceclient.silent.read-timeout)");
			});
	}

	@Test
	void anHttpClientSettingsBeanOfTheApplicationsWinsAndOneWithoutTimeoutsIsReported() {
		this.runner.withUserConfiguration(OwnSettings.class).run((context) -> {
			assertThat(context.getBean(HttpClientSettings.class).readTimeout()).isNull();
			assertThat(findings(context)).hasSize(2)
				.allSatisfy((finding) -> assertThat(finding.id()).isEqualTo("http-clients.no-timeout"))
				.anySatisfy((finding) -> assertThat(finding.message())
					.contains("read not set (the application's HttpClientSettings bean)"));
		});
	}

	@Test
	void aTimeoutSetToNoneIsReportedNamingTheGroupAndThePropertyToSet() {
		this.runner
			.withPropertyValues("spring.http.clients.connect-timeout=61m",
					"spring.http.serviceclient.silent.read-timeout=2h")
			.withUserConfiguration(SilentGroup.class)
			.run((context) -> {
				List<Finding> findings = findings(context);
				assertThat(findings).extracting(Finding::subject)
					.containsExactlyInAnyOrder("Boot's HTTP clients", "HTTP service group 'silent'");
				assertThat(findings).anySatisfy((finding) -> {
					assertThat(finding.subject()).isEqualTo("HTTP service group 'silent'");
					assertThat(finding.message()).contains("read 2h");
					assertThat(finding.fix()).startsWith("Set spring.http.serviceclient.silent.read-timeout");
				});
				assertThat(findings).anySatisfy(
						(finding) -> assertThat(finding.fix()).startsWith("Set spring.http.clients.connect-timeout"));
			});
	}

	@Test
	void switchedOffBootsSettingsStayEmptyAndTheCheckSaysSo() {
		this.runner.withPropertyValues("safe-defaults.http-client-timeouts.enabled=false").run((context) -> {
			assertThat(context.getBean(HttpClientSettings.class).readTimeout()).isNull();
			assertThat(context.getEnvironment()
				.getPropertySources()
				.contains(HttpClientTimeoutsDefaults.PROPERTY_SOURCE_NAME)).isFalse();
			assertThat(status(context).enabled()).isFalse();
			assertThat(findings(context)).hasSize(2)
				.allSatisfy((finding) -> assertThat(finding.message())
					.contains("safe-defaults.http-client-timeouts.enabled=false"));
		});
	}

	@Test
	void theMasterSwitchLeavesTheEnvironmentAlone() {
		StandardEnvironment environment = new StandardEnvironment();
		TestPropertySourceUtils.addInlinedPropertiesToEnvironment(environment, "safe-defaults.enabled=false");
		new HttpClientTimeoutsDefaults().postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getPropertySources().contains(HttpClientTimeoutsDefaults.PROPERTY_SOURCE_NAME))
			.isFalse();
	}

	@Test
	void aValueOutOfRangeFailsNamingPropertyValueAndRange() {
		StandardEnvironment environment = new StandardEnvironment();
		TestPropertySourceUtils.addInlinedPropertiesToEnvironment(environment,
				"safe-defaults.http-client-timeouts.read=11m");
		assertThatExceptionOfType(InvalidConfigurationPropertyValueException.class)
			.isThrownBy(
					() -> new HttpClientTimeoutsDefaults().postProcessEnvironment(environment, new SpringApplication()))
			.withMessageContaining("safe-defaults.http-client-timeouts.read")
			.withMessageContaining("11m");
	}

	@Test
	void withoutBootsHttpClientSupportTheStatusSaysTheLibraryIsAbsent() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(SafeDefaultsAutoConfiguration.class,
					HttpClientTimeoutsAutoConfiguration.class))
			.withClassLoader(new FilteredClassLoader("org.springframework.boot.http.client"))
			.run((context) -> assertThat(status(context).reason()).startsWith("library absent"));
	}

	/**
	 * Calls the silent server on another thread and waits for the client to give up, at
	 * most the bound: a client without a timeout fails the test instead of hanging it.
	 */
	private static void assertGivesUpWithin(Duration bound, Supplier<@Nullable String> call) throws Exception {
		CompletableFuture<@Nullable String> result = CompletableFuture.supplyAsync(call);
		assertThatExceptionOfType(ExecutionException.class)
			.isThrownBy(() -> result.get(bound.toMillis(), TimeUnit.MILLISECONDS))
			.withCauseInstanceOf(ResourceAccessException.class);
	}

	private static FeatureStatus status(AssertableApplicationContext context) {
		return context.getBeansOfType(FeatureStatusReporter.class)
			.values()
			.stream()
			.map(FeatureStatusReporter::status)
			.filter((status) -> status.feature().equals("http-client-timeouts"))
			.findFirst()
			.orElseThrow();
	}

	private static List<Finding> findings(AssertableApplicationContext context) {
		return context.getBean(FindingsStore.class)
			.findings()
			.stream()
			.filter((finding) -> finding.id().equals("http-clients.no-timeout"))
			.toList();
	}

	interface SilentService {

		@GetExchange("/anything")
		String call();

	}

	@Configuration(proxyBeanMethods = false)
	@ImportHttpServices(group = "silent", types = SilentService.class)
	static class SilentGroup {

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnSettings {

		@Bean
		HttpClientSettings ownHttpClientSettings() {
			return HttpClientSettings.defaults();
		}

	}

}
