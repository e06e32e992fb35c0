package dev.safedefaults.logging;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

import org.springframework.core.env.Environment;
import org.springframework.core.io.ClassPathResource;
import org.springframework.util.StringUtils;

/**
 * The configuration file of one logging system that Boot would load for an application:
 * the file {@code logging.config} names, or else the first of the class path root's
 * standard names and their {@code -spring} forms, in the order Boot looks. Only resource
 * names are kept, never a path of the machine.
 */
enum LoggingConfigurationFiles {

	/**
	 * Boot's {@code LogbackLoggingSystem.getStandardConfigLocations()}, then the
	 * {@code -spring} forms {@code AbstractLoggingSystem.getSpringConfigLocations()}
	 * derives from them.
	 */
	LOGBACK("logback", List.of("logback-test.groovy", "logback-test.xml", "logback.groovy", "logback.xml",
			"logback-test-spring.groovy", "logback-test-spring.xml", "logback-spring.groovy", "logback-spring.xml")),

	/**
	 * Boot 4 lets Log4j find its own file (Log4j's {@code ConfigurationFactory}: the
	 * prefixes {@code log4j2-test} then {@code log4j2}, with the extensions of its
	 * properties, YAML, JSON and XML factories), then asks the same factory for the
	 * {@code -spring} forms.
	 */
	LOG4J2("log4j2", log4j2Names());

	private static final String CONFIG_PROPERTY = "logging.config";

	private final String prefix;

	private final List<String> names;

	LoggingConfigurationFiles(String prefix, List<String> names) {
		this.prefix = prefix;
		this.names = names;
	}

	/**
	 * The names Boot looks for at the class path root, in its order.
	 * @return the resource names
	 */
	List<String> standardNames() {
		return this.names;
	}

	/**
	 * The configuration file of this system that Boot would load for the application: the
	 * file {@code logging.config} names when it is one of this system's (and nothing else
	 * when {@code logging.config} is set, since Boot then reads only that), else the
	 * first standard name present at the class path root.
	 * @param environment the environment
	 * @param classLoader the application's class loader
	 * @return its resource name, or {@code null} when the application ships none
	 */
	@Nullable String shipped(Environment environment, @Nullable ClassLoader classLoader) {
		String configured = environment.getProperty(CONFIG_PROPERTY);
		if (StringUtils.hasText(configured)) {
			String name = fileName(configured);
			return name.toLowerCase(Locale.ROOT).startsWith(this.prefix) ? name : null;
		}
		return this.names.stream()
			.filter((name) -> new ClassPathResource(name, classLoader).exists())
			.findFirst()
			.orElse(null);
	}

	/**
	 * How a finding names where the file was found.
	 * @param environment the environment
	 * @return {@code logging.config} when that property names the file, else
	 * {@code the class path}
	 */
	static String origin(Environment environment) {
		return StringUtils.hasText(environment.getProperty(CONFIG_PROPERTY)) ? CONFIG_PROPERTY : "the class path";
	}

	private static String fileName(String location) {
		String path = StringUtils.cleanPath(location.strip());
		int start = Math.max(path.lastIndexOf('/'), path.lastIndexOf(':')) + 1;
		return path.substring(start);
	}

	private static List<String> log4j2Names() {
		List<String> names = new ArrayList<>();
		for (String prefix : List.of("log4j2-test", "log4j2", "log4j2-test-spring", "log4j2-spring")) {
			for (String extension : List.of(".properties", ".yml", ".yaml", ".json", ".jsn", ".xml")) {
				names.add(prefix + extension);
			}
		}
		return List.copyOf(names);
	}

}
