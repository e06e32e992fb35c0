package dev.safedefaults.logging.logback;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.logging.logback.LogbackLoggingSystem;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code %throttledEx} in Boot's own Logback configuration, as an application that keeps
 * Logback gets it: the starter registers the word and makes it
 * {@code logging.exception-conversion-word}, Boot puts it after every message.
 */
@Tag("logback")
@ExtendWith(OutputCaptureExtension.class)
class ThrottledStackTracesInBootsLogbackConfigurationTests {

	@Test
	void bootsDefaultLogbackPatternPrintsTheFirstThreeTracesInFullAndOneLineForTheRepeats(CapturedOutput output) {
		SpringApplication application = new SpringApplication(Empty.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		try (ConfigurableApplicationContext context = application.run("--spring.main.banner-mode=off")) {
			assertThat(context.getBean(LoggingSystem.class)).isInstanceOf(LogbackLoggingSystem.class);
			assertThat(context.getEnvironment().getProperty("logging.exception-conversion-word"))
				.isEqualTo("%throttledEx");
			Logger logger = LoggerFactory.getLogger("dev.safedefaults.test.ErrorStorm");
			for (int i = 0; i < 5; i++) {
				logger.error("call " + i + " failed", new IllegalStateException("secret-free message " + i));
			}
		}
		String out = output.getOut();
		assertThat(count(out, "java.lang.IllegalStateException: secret-free message")).isEqualTo(3);
		assertThat(count(out, "java.lang.IllegalStateException at ")).isEqualTo(2);
		assertThat(out).contains("(message and stack trace elided: seen 5 times since").doesNotContain("%PARSER_ERROR");
	}

	private static int count(String text, String what) {
		Matcher matcher = Pattern.compile(Pattern.quote(what)).matcher(text);
		int count = 0;
		while (matcher.find()) {
			count++;
		}
		return count;
	}

	@SpringBootConfiguration
	static class Empty {

	}

}
