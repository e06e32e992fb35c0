package dev.safedefaults.httpclient.timeouts;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FeatureStatus;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.testsupport.SilentDownstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

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
import org.springframework.web.client.RestClient;
import org.springframework.web.service.annotation.GetExchange;
import org.springframework.web.service.registry.ImportHttpServices;

import static dev.safedefaults.httpclient.timeouts.TimedCall.assertGivesUpAfter;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every client Boot builds gets a connect and a read timeout where the application sets
 * none, through Boot's own settings at the lowest precedence; whatever the application
 * sets wins; a client left without one is reported. Covers
 * {@code HttpClientTimeoutsDefaults} (10s and 60s, the properties that change them, the
 * switch and the range), {@code BootClientTimeouts} and {@code ClientTimeouts} (Boot's
 * clients and each HTTP service group, each timeout with its value and where it comes
 * from), {@code HttpClientTimeoutsFeatureStatus} (what got the defaults, what kept its
 * own, the library absent), and {@code ClientTimeoutsCheck} with
 * {@code HttpClientTimeoutsFindings} (one finding per setting left without a bound,
 * naming the clients and the property to set, and the switch when it is off).
 */
class HttpClientTimeoutsAutoConfigurationTests {

	private static SilentDownstream silent;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
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
			assertGivesUpAfter(Duration.ofMillis(300),
					() -> client.get().uri("/anything").retrieve().body(String.class));
		});
	}

	@Test
	void restTemplateBuilderAndEveryHttpServiceGroupGiveUpOnADownstreamThatNeverAnswers() {
		this.runner.withPropertyValues("safe-defaults.http-client-timeouts.read=300ms")
			.withUserConfiguration(SilentGroup.class)
			.run((context) -> {
				assertGivesUpAfter(Duration.ofMillis(300), () -> context.getBean(SilentService.class).call());
				assertGivesUpAfter(Duration.ofMillis(300),
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
					"Boot's HTTP clients: connect 10s (safe-defaults), read 5s (the application's spring.http.clients.read-timeout, from \"spring.http.clients.read-timeout\" from property source \"test\")");
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
				assertGivesUpAfter(Duration.ofMillis(300), () -> context.getBean(SilentService.class).call());
				assertThat(status(context).reason()).contains(
						"HTTP service group 'silent': connect 10s (safe-defaults), read 300ms (the application's spring.http.serviceclient.silent.read-timeout");
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
	void aNegativeReadTimeoutIsReportedAsFailingEveryCallAndIsTheApplications() {
		this.runner.withPropertyValues("spring.http.clients.read-timeout=-1s").run((context) -> {
			assertThat(findings(context)).singleElement().satisfies((finding) -> {
				assertThat(finding.message())
					.startsWith("Its read -1s (the application's spring.http.clients.read-timeout")
					.contains("makes every call on the JDK HttpClient fail at once")
					.doesNotContain("safe-defaults)")
					.doesNotContain("for ever (measured");
			});
			RestClient client = context.getBean(RestClient.Builder.class).baseUrl(silent.url()).build();
			assertGivesUpAfter(Duration.ZERO, () -> client.get().uri("/anything").retrieve().body(String.class));
		});
	}

	@Test
	void aZeroReadTimeoutIsReportedAsNone() {
		this.runner.withPropertyValues("spring.http.clients.read-timeout=0").run((context) -> {
			assertThat(findings(context)).singleElement()
				.satisfies((finding) -> assertThat(finding.message())
					.startsWith("Its read 0ms (the application's spring.http.clients.read-timeout")
					.contains("0 is no timeout"));
		});
	}

	@Test
	void switchedOffBootsSettingsStayEmptyAndTheCheckSaysSo() {
		this.runner.withPropertyValues("safe-defaults.http-client-timeouts.enabled=false").run((context) -> {
			assertThat(context.getBean(HttpClientSettings.class).readTimeout()).isNull();
			assertThat(status(context).enabled()).isFalse();
			assertThat(findings(context)).hasSize(2)
				.allSatisfy((finding) -> assertThat(finding.message())
					.contains("safe-defaults.http-client-timeouts.enabled=false"));
		});
	}

	@Test
	void theMasterSwitchLeavesBootsSettingsAlone() {
		this.runner.withPropertyValues("safe-defaults.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(TimeoutDecisions.class);
			assertThat(context.getBean(HttpClientSettings.class).connectTimeout()).isNull();
			assertThat(context.getBean(HttpClientSettings.class).readTimeout()).isNull();
		});
	}

	@Test
	void aValueOutOfRangeFailsTheStartNamingPropertyValueAndRange() {
		this.runner.withPropertyValues("safe-defaults.http-client-timeouts.read=11m")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("safe-defaults.http-client-timeouts.read")
				.hasMessageContaining("11m")
				.hasMessageContaining("10m"));
	}

	@Test
	void withoutBootsHttpClientSupportTheStatusSaysTheLibraryIsAbsent() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(SafeDefaultsAutoConfiguration.class,
					HttpClientTimeoutsAutoConfiguration.class))
			.withClassLoader(new FilteredClassLoader("org.springframework.boot.http.client"))
			.run((context) -> assertThat(status(context).reason()).startsWith("library absent"));
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
