package dev.safedefaults.web;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FeatureStatus;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.thymeleaf.autoconfigure.ThymeleafAutoConfiguration;
import org.springframework.boot.tomcat.autoconfigure.servlet.TomcatServletWebServerAutoConfiguration;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.webmvc.autoconfigure.DispatcherServletAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.context.support.ServletContextResource;
import org.springframework.web.servlet.resource.ResourceUrlProvider;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 35: a real Spring MVC application (embedded Tomcat, Thymeleaf, the resource chain
 * with content-hashed URLs, webjars-locator-lite and the bootstrap webjar) renders a page
 * of static resources, webjars with and without their version, and plain links: the same
 * HTML with the remembered misses as without, on every render; a resource added under a
 * file-system location after the page was first rendered is still found.
 * <p>
 * The test runs from directories, where the starter remembers nothing (a file copied into
 * target/classes is served at once): the application here declares its class-path and
 * servlet-context locations unchanging, as they are in a packaged jar.
 */
class RenderedPagesTests {

	private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@TempDir
	Path uploads;

	@Test
	void pagesRenderTheSameHtmlWithTheRememberedMissesAsWithout() throws Exception {
		String withoutMisses;
		try (ConfigurableApplicationContext off = start(false, false)) {
			withoutMisses = render(off);
			assertThat(render(off)).isEqualTo(withoutMisses);
		}
		try (ConfigurableApplicationContext on = start(true, false)) {
			String first = render(on);
			String second = render(on);
			String third = render(on);
			assertThat(first).isEqualTo(withoutMisses);
			assertThat(second).isEqualTo(withoutMisses);
			assertThat(third).isEqualTo(withoutMisses);
			RememberedMisses misses = on.getBean(RememberedMisses.class);
			assertThat(misses.caffeineCache().stats().hitCount())
				.as("links answered from a remembered miss on the second and third renders")
				.isGreaterThanOrEqualTo(20);
			MissSkippingPathMatcher matcher = (MissSkippingPathMatcher) on.getBean(ResourceUrlProvider.class)
				.getPathMatcher();
			assertThat(matcher.remembersSkip("/**", "/owners/7/edit"))
				.as("a plain link skipped by the provider, its handler's locations all unchanging")
				.isTrue();
			assertThat(matcher.remembersSkip("/**", "/css/site.css")).as("a resource").isFalse();
		}
		assertThat(withoutMisses).as("the versioned resource")
			.containsPattern("href=\"/css/site-[0-9a-f]{32}\\.css\"")
			.containsPattern("href=\"/css/site-[0-9a-f]{32}\\.css\\?v=1\"")
			.as("the webjars, without and with their version")
			.containsPattern("href=\"/webjars/bootstrap/5.3.3/css/bootstrap.min-[0-9a-f]{32}\\.css\".*\\n.*"
					+ "href=\"/webjars/bootstrap/5.3.3/css/bootstrap.min-[0-9a-f]{32}\\.css\"")
			.containsPattern("src=\"/webjars/bootstrap/5.3.3/js/bootstrap.bundle.min-[0-9a-f]{32}\\.js\"")
			.as("the plain links")
			.contains("href=\"/owners/7/edit\"", "href=\"/owners?lastName=Davis\"", "href=\"/vets.html#top\"",
					"href=\"/missing.css\"", "href=\"/webjars/no-such-webjar/x.js\"",
					"href=\"https://example.org/elsewhere\"");
	}

	@Test
	void aResourceAddedUnderAFileSystemLocationIsFoundAfterItsMissWasRemembered() throws Exception {
		try (ConfigurableApplicationContext on = start(true, true)) {
			assertThat(render(on)).contains("href=\"/uploads/added.txt\"");
			assertThat(render(on)).contains("href=\"/uploads/added.txt\"");
			Files.createDirectories(this.uploads.resolve("uploads"));
			Files.writeString(this.uploads.resolve("uploads/added.txt"), "added while running");
			assertThat(render(on)).containsPattern("href=\"/uploads/added-[0-9a-f]{32}\\.txt\"");
		}
	}

	@Test
	void theStatusNamesTheHandlersWhoseMissesAreRemembered() throws Exception {
		try (ConfigurableApplicationContext on = start(true, true)) {
			FeatureStatus status = on.getBean(ResourceMissesFeatureStatus.class).status();
			assertThat(status.enabled()).isTrue();
			assertThat(status.appliedTo())
				.anyMatch((handler) -> handler.equals("/** (2 of 3 locations remembered, 1 asked every time)"));
			assertThat(status.shortForm()).isEqualTo("resource-misses(2 handlers)");
		}
	}

	@Test
	void withTheDefaultOffTheEncodingFilterIsReported() throws Exception {
		try (ConfigurableApplicationContext off = start(false, true)) {
			List<Finding> findings = off.getBean(FindingsStore.class).findings();
			assertThat(findings).singleElement().satisfies((finding) -> {
				assertThat(finding.id()).isEqualTo("web.resource-misses-uncached");
				assertThat(finding.message()).contains("safe-defaults.resource-misses.enabled=false");
			});
		}
		try (ConfigurableApplicationContext on = start(true, true)) {
			assertThat(on.getBean(FindingsStore.class).findings()).isEmpty();
		}
	}

	private ConfigurableApplicationContext start(boolean rememberMisses, boolean withUploads) {
		String uploads = withUploads ? ",file:" + this.uploads + "/" : "";
		return new SpringApplicationBuilder(PageApplication.class).web(WebApplicationType.SERVLET)
			.properties("server.port=0", "spring.main.banner-mode=off",
					"spring.thymeleaf.prefix=classpath:/resourcechain/templates/",
					"spring.web.resources.static-locations=classpath:/resourcechain/static/" + uploads,
					"spring.web.resources.chain.strategy.content.enabled=true",
					"spring.web.resources.chain.strategy.content.paths=/**",
					"safe-defaults.resource-misses.enabled=" + rememberMisses)
			.run();
	}

	private static String render(ConfigurableApplicationContext context) throws IOException, InterruptedException {
		int port = ((WebServerApplicationContext) context).getWebServer().getPort();
		HttpResponse<String> response = CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
			.timeout(Duration.ofSeconds(10))
			.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return response.body();
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ TomcatServletWebServerAutoConfiguration.class, DispatcherServletAutoConfiguration.class,
			WebMvcAutoConfiguration.class, HttpMessageConvertersAutoConfiguration.class,
			ThymeleafAutoConfiguration.class, SafeDefaultsAutoConfiguration.class,
			ResourceMissesAutoConfiguration.class })
	static class PageApplication {

		@Bean
		UnchangingLocations classPathLocationsAsInAPackagedJar() {
			return new UnchangingLocations() {

				@Override
				boolean isUnchanging(Resource location) {
					return location instanceof ClassPathResource || location instanceof ServletContextResource;
				}

			};
		}

		@Bean
		PageController pageController() {
			return new PageController();
		}

	}

	@Controller
	static class PageController {

		@GetMapping("/")
		String links() {
			return "links";
		}

	}

}
