package dev.safedefaults.check.actuate;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import dev.safedefaults.check.Finding;
import dev.safedefaults.check.CheckFindings;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.check.Severity;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Who reads the findings over HTTP, in a web application with Spring Security whose
 * actuator paths are open to everyone (as applications that open them to load-balancer
 * probes do): anonymous clients, an authenticated operator, and the settings that change
 * that.
 */
class FindingsExposureTests {

	private static final HttpClient CLIENT = HttpClient.newHttpClient();

	private static final String FINDING_SUBJECT = "pool-exposure-probe";

	private static final String OPERATOR = "operator:operator-pass";

	private static final String AUDITOR = "auditor:auditor-pass";

	@Test
	void anAnonymousClientSeesTheGroupsStatusAndNoFindingByDefault() throws Exception {
		try (ConfigurableApplicationContext context = start()) {
			Response health = get(context, "/actuator/health/safe-defaults", false);
			assertThat(health.status()).isEqualTo(200);
			assertThat(health.body()).isEqualTo("{\"status\":\"UP\"}");
			Response endpoint = get(context, "/actuator/safedefaults", false);
			assertThat(endpoint.status()).isEqualTo(200);
			assertThat(endpoint.body()).contains("withheld")
				.doesNotContain(FINDING_SUBJECT)
				.doesNotContain("features")
				.doesNotContain("jdbc");
		}
	}

	@Test
	void anAuthorizedOperatorSeesTheFindingsWithWhenAuthorized() throws Exception {
		try (ConfigurableApplicationContext context = start(
				"management.endpoint.health.show-details=when-authorized")) {
			assertThat(withheldFrom(get(context, "/actuator/health/safe-defaults", false)))
				.doesNotContain(FINDING_SUBJECT);
			assertThat(withheldFrom(get(context, "/actuator/safedefaults", false))).doesNotContain(FINDING_SUBJECT);
			assertThat(get(context, "/actuator/health/safe-defaults", true).body()).contains(FINDING_SUBJECT);
			assertThat(get(context, "/actuator/safedefaults", true).body()).contains(FINDING_SUBJECT)
				.contains("\"features\"");
		}
	}

	@Test
	void theHealthRolesApplyToTheEndpointToo() throws Exception {
		try (ConfigurableApplicationContext context = start("management.endpoint.health.show-details=when-authorized",
				"management.endpoint.health.roles=AUDITOR")) {
			// The operator is authenticated but lacks the role: the group's status only.
			Response health = get(context, "/actuator/health/safe-defaults", true);
			assertThat(health.status()).isEqualTo(200);
			assertThat(health.body()).isEqualTo("{\"status\":\"UP\"}").doesNotContain(FINDING_SUBJECT);
			Response endpoint = get(context, "/actuator/safedefaults", true);
			assertThat(endpoint.status()).isEqualTo(200);
			assertThat(endpoint.body()).contains("withheld").doesNotContain(FINDING_SUBJECT);
			// Positive control: the same requests by a user who has the role.
			Response auditorHealth = get(context, "/actuator/health/safe-defaults", AUDITOR);
			assertThat(auditorHealth.status()).isEqualTo(200);
			assertThat(auditorHealth.body()).contains(FINDING_SUBJECT);
			Response auditorEndpoint = get(context, "/actuator/safedefaults", AUDITOR);
			assertThat(auditorEndpoint.status()).isEqualTo(200);
			assertThat(auditorEndpoint.body()).contains(FINDING_SUBJECT).doesNotContain("withheld");
		}
	}

	@Test
	void theGlobalNeverIsHonouredEvenForAnAuthorizedOperator() throws Exception {
		try (ConfigurableApplicationContext context = start("management.endpoint.health.show-details=never")) {
			Response health = get(context, "/actuator/health/safe-defaults", true);
			assertThat(health.status()).isEqualTo(200);
			assertThat(health.body()).isEqualTo("{\"status\":\"UP\"}");
			Response endpoint = get(context, "/actuator/safedefaults", true);
			assertThat(endpoint.status()).isEqualTo(200);
			assertThat(endpoint.body()).contains("withheld").doesNotContain(FINDING_SUBJECT);
		}
		// Positive control: the same operator, the same requests, with when-authorized.
		try (ConfigurableApplicationContext context = start(
				"management.endpoint.health.show-details=when-authorized")) {
			assertThat(get(context, "/actuator/health/safe-defaults", true).body()).contains(FINDING_SUBJECT);
			assertThat(get(context, "/actuator/safedefaults", true).body()).contains(FINDING_SUBJECT);
		}
	}

	@Test
	void theStartersPropertyOpensTheFindingsToEveryone() throws Exception {
		try (ConfigurableApplicationContext context = start("safe-defaults.health.show-details=always")) {
			assertThat(get(context, "/actuator/health/safe-defaults", false).body()).contains(FINDING_SUBJECT);
			assertThat(get(context, "/actuator/safedefaults", false).body()).contains(FINDING_SUBJECT);
			// The rest of health keeps the application's (Boot's default) rules.
			assertThat(withheldFrom(get(context, "/actuator/health", false))).doesNotContain(FINDING_SUBJECT)
				.doesNotContain("details");
		}
	}

	@Test
	void theStartersPropertyCanRestrictAnOpenApplication() throws Exception {
		try (ConfigurableApplicationContext context = start("management.endpoint.health.show-details=always",
				"safe-defaults.health.show-details=when-authorized")) {
			assertThat(withheldFrom(get(context, "/actuator/health/safe-defaults", false)))
				.doesNotContain(FINDING_SUBJECT);
			assertThat(withheldFrom(get(context, "/actuator/safedefaults", false))).doesNotContain(FINDING_SUBJECT);
			assertThat(get(context, "/actuator/safedefaults", true).body()).contains(FINDING_SUBJECT);
		}
	}

	private static ConfigurableApplicationContext start(String... properties) {
		List<String> all = new ArrayList<>(List.of("server.port=0",
				"management.endpoints.web.exposure.include=health,safedefaults", "spring.jmx.enabled=false"));
		all.addAll(List.of(properties));
		ConfigurableApplicationContext context = new SpringApplicationBuilder(SecuredApplication.class)
			.web(WebApplicationType.SERVLET)
			.properties(all.toArray(String[]::new))
			.run();
		context.getBean(FindingsStore.class)
			.publish("exposure-test", List.of(new Finding(CheckFindings.CHECKS_FAILED.id(), Severity.WARNING,
					FINDING_SUBJECT, "A message an attacker should not read.", "Nothing to fix.")));
		return context;
	}

	private static Response get(ConfigurableApplicationContext context, String path, boolean authenticated)
			throws Exception {
		return get(context, path, authenticated ? OPERATOR : null);
	}

	private static Response get(ConfigurableApplicationContext context, String path, @Nullable String credentials)
			throws Exception {
		int port = ((WebServerApplicationContext) context).getWebServer().getPort();
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
		if (credentials != null) {
			request.header("Authorization",
					"Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
		}
		HttpResponse<String> response = CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
		return new Response(response.statusCode(), response.body());
	}

	/**
	 * The body of a response that must withhold the findings; the status is checked so
	 * that an error page (which holds no finding either) cannot pass for it.
	 */
	private static String withheldFrom(Response response) {
		assertThat(response.status()).as("status").isEqualTo(200);
		return response.body();
	}

	record Response(int status, String body) {
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class SecuredApplication {

		@Bean
		SecurityFilterChain everythingOpenWithBasicAuth(HttpSecurity http) throws Exception {
			http.authorizeHttpRequests((requests) -> requests.anyRequest().permitAll())
				.httpBasic(Customizer.withDefaults());
			return http.build();
		}

		@Bean
		UserDetailsService operators() {
			return new InMemoryUserDetailsManager(
					User.withUsername("operator").password("{noop}operator-pass").roles("ACTUATOR").build(),
					User.withUsername("auditor").password("{noop}auditor-pass").roles("AUDITOR").build());
		}

	}

}
