package dev.safedefaults.logging.log4j2;

import java.io.IOException;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.List;

import dev.safedefaults.logging.stacktrace.StackTraceThrottling;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A real {@link SpringApplication} with Spring Boot's own default Log4j2 configuration,
 * whose pattern ends in {@code ${sys:LOG_EXCEPTION_CONVERSION_WORD}}: the starter's
 * environment post-processor must set {@code logging.exception-conversion-word} before
 * Boot's logging listener copies it into that system property, on the same event.
 * <p>
 * It reconfigures the JVM's one Log4j context; afterwards the tests' own configuration
 * and the system properties are restored.
 */
@ExtendWith(OutputCaptureExtension.class)
class ThrottledStackTracesInBootsDefaultLoggingTests {

	private static final String BOOT_DEFAULT_CONFIG = "classpath:org/springframework/boot/logging/log4j2/log4j2.xml";

	private static final String CONVERSION_WORD_SYSTEM_PROPERTY = "LOG_EXCEPTION_CONVERSION_WORD";

	private static final List<String> BOOT_SYSTEM_PROPERTIES = List.of(CONVERSION_WORD_SYSTEM_PROPERTY, "PID",
			"CONSOLE_LOG_CHARSET", "FILE_LOG_CHARSET");

	@BeforeEach
	@AfterEach
	void restore() throws URISyntaxException {
		// Boot sets these only when absent: a value left by another run would win.
		BOOT_SYSTEM_PROPERTIES.forEach(System::clearProperty);
		LoggerContext log4j = (LoggerContext) LogManager.getContext(false);
		log4j.setConfigLocation(getClass().getResource("/log4j2-test.xml").toURI());
		StackTraceThrottling.reset();
	}

	private static ConfigurableApplicationContext run(String... args) {
		SpringApplication application = new SpringApplication(EmptyConfiguration.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		String[] common = { "--logging.config=" + BOOT_DEFAULT_CONFIG, "--spring.main.banner-mode=off",
				"--spring.main.log-startup-info=false", "--logging.register-shutdown-hook=false" };
		String[] all = new String[common.length + args.length];
		System.arraycopy(common, 0, all, 0, common.length);
		System.arraycopy(args, 0, all, common.length, args.length);
		return application.run(all);
	}

	private static IllegalStateException downstreamFailure(int i) {
		return new IllegalStateException("downstream answered 500 (" + i + ")", new IOException("bad gateway"));
	}

	private static void awaitLines(CapturedOutput output, String text, int count) {
		await().atMost(Duration.ofSeconds(30))
			.until(() -> output.getOut().lines().filter((line) -> line.contains(text)).count() >= count);
	}

	@Test
	void bootsDefaultConfigurationPrintsTheFirstTracesInFullAndRepeatsOnOneLine(CapturedOutput output) {
		try (ConfigurableApplicationContext context = run()) {
			assertThat(System.getProperty(CONVERSION_WORD_SYSTEM_PROPERTY)).isEqualTo("%throttledEx");
			Logger logger = LogManager.getLogger("storm");
			for (int i = 1; i <= 10; i++) {
				logger.error("request failed " + i, downstreamFailure(i));
			}
			awaitLines(output, "seen 10 times", 1);
		}
		List<String> lines = output.getOut().lines().toList();
		assertThat(lines.stream().filter((line) -> line.contains(" ERROR ") && line.contains("request failed ")))
			.hasSize(10);
		assertThat(lines.stream().filter((line) -> line.startsWith("Caused by: java.io.IOException: bad gateway")))
			.hasSize(3);
		assertThat(lines.stream().filter((line) -> line.contains("(message and stack trace elided: seen "))).hasSize(7)
			.last()
			.asString()
			.startsWith("java.lang.IllegalStateException at ")
			.contains(", root cause java.io.IOException (message and stack trace elided: seen 10 times")
			.doesNotContain("downstream answered");
	}

	@Test
	void theApplicationsOwnConversionWordWins(CapturedOutput output) {
		try (ConfigurableApplicationContext context = run("--logging.exception-conversion-word=%xwEx")) {
			assertThat(System.getProperty(CONVERSION_WORD_SYSTEM_PROPERTY)).isEqualTo("%xwEx");
			Logger logger = LogManager.getLogger("storm");
			for (int i = 1; i <= 5; i++) {
				logger.error("request failed " + i, downstreamFailure(i));
			}
			awaitLines(output, "Caused by: java.io.IOException: bad gateway", 5);
		}
		assertThat(output.getOut()).doesNotContain("stack trace elided");
	}

	@Test
	void switchedOffBootsDefaultRemains(CapturedOutput output) {
		try (ConfigurableApplicationContext context = run("--safe-defaults.logging.stack-traces.enabled=false")) {
			// Not set by Boot at all: its configuration's own default (%xwEx) applies.
			assertThat(System.getProperty(CONVERSION_WORD_SYSTEM_PROPERTY)).isNull();
			Logger logger = LogManager.getLogger("storm");
			for (int i = 1; i <= 5; i++) {
				logger.error("request failed " + i, downstreamFailure(i));
			}
			awaitLines(output, "Caused by: java.io.IOException: bad gateway", 5);
		}
		assertThat(output.getOut()).doesNotContain("stack trace elided");
	}

	@Configuration(proxyBeanMethods = false)
	static class EmptyConfiguration {

	}

}
