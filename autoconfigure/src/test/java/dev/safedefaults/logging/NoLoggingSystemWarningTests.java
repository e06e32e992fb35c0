package dev.safedefaults.logging;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.test.context.support.TestPropertySourceUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With both logging routes' libraries excluded, SLF4J has no provider and discards every
 * line: the starter says so on standard error, with both routes. Covers
 * {@code LoggingDefaultsSwitch}: with the master switch or the logging switch off,
 * nothing is said.
 */
class NoLoggingSystemWarningTests {

	private final ByteArrayOutputStream err = new ByteArrayOutputStream();

	private final NoLoggingSystemWarning warning = new NoLoggingSystemWarning(Slf4jBinding::factoryClassName,
			new PrintStream(this.err, true, StandardCharsets.UTF_8));

	/** SLF4J's API alone, as an application with neither route's library has it. */
	private static ClassLoader slf4jWithoutAProvider() throws URISyntaxException {
		URL slf4jApi = org.slf4j.LoggerFactory.class.getProtectionDomain().getCodeSource().getLocation();
		return new URLClassLoader(new URL[] { slf4jApi }, ClassLoader.getPlatformClassLoader());
	}

	private String postProcess(ClassLoader classLoader, String... properties) {
		StandardEnvironment environment = new StandardEnvironment();
		TestPropertySourceUtils.addInlinedPropertiesToEnvironment(environment, properties);
		SpringApplication application = new SpringApplication();
		application.setResourceLoader(new DefaultResourceLoader(classLoader));
		this.warning.postProcessEnvironment(environment, application);
		return this.err.toString(StandardCharsets.UTF_8);
	}

	@Test
	void slf4jWithoutAProviderIsToldOnStandardErrorWithBothRoutes() throws Exception {
		String written = postProcess(slf4jWithoutAProvider());
		assertThat(written).startsWith("safe-defaults: SLF4J found no provider")
			.contains("<dependencies> (not <dependencyManagement>)")
			.contains("exclude only spring-boot-starter-log4j2 from the starter and keep spring-boot-starter-logging");
		assertThat(written.lines()).hasSize(1);
	}

	@Test
	void slf4jBoundToAProviderIsNotReported() {
		// The test class path: SLF4J bound to Log4j2 (log4j-slf4j2-impl).
		assertThat(Slf4jBinding.factoryClassName(getClass().getClassLoader()))
			.isEqualTo("org.apache.logging.slf4j.Log4jLoggerFactory");
		assertThat(postProcess(getClass().getClassLoader())).isEmpty();
	}

	@Test
	void withoutSlf4jNothingIsSaid() {
		// Commons Logging then writes through java.util.logging: lines are not lost.
		assertThat(postProcess(new FilteredClassLoader("org.slf4j"))).isEmpty();
	}

	@Test
	void switchedOffTheStarterSaysNothing() throws Exception {
		assertThat(postProcess(slf4jWithoutAProvider(), "safe-defaults.enabled=false")).isEmpty();
		assertThat(postProcess(slf4jWithoutAProvider(), "safe-defaults.logging.enabled=false")).isEmpty();
	}

}
