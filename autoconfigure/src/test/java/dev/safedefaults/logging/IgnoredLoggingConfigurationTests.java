package dev.safedefaults.logging;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.logging.log4j2.Log4j2DefaultsAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.asm.ClassReader;
import org.springframework.asm.ClassVisitor;
import org.springframework.asm.ClassWriter;
import org.springframework.asm.MethodVisitor;
import org.springframework.asm.Opcodes;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No logging configuration is ignored in silence: a Logback file while Log4j2 runs, a
 * Log4j2 file while Logback runs, and why Logback runs when both are on the class path;
 * the keep-Logback route (Logback without Log4j2's core) is not reported as a failed
 * Log4j2 route. Covers {@code Log4j2LoggingSystemChoice} as the check asks it: Boot's
 * Log4j2 system told from the others, and Log4j2's core present or not.
 */
class IgnoredLoggingConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SafeDefaultsAutoConfiguration.class,
				LoggingDefaultsAutoConfiguration.class, Log4j2DefaultsAutoConfiguration.class));

	/** The system these tests run on: Boot's Log4j2 one. */
	private final ApplicationContextRunner onLog4j2 = this.runner.withBean(LoggingSystem.class,
			() -> LoggingSystem.get(getClass().getClassLoader()));

	/** Boot's Logback system, as the check sees it: by its class name. */
	private final ApplicationContextRunner onLogback = this.runner.withBean(LoggingSystem.class,
			IgnoredLoggingConfigurationTests::namedAsBootsLogbackSystem);

	/** A system that is neither Log4j2 nor Logback (JUL, say). */
	private final ApplicationContextRunner onAnotherSystem = this.runner.withBean(LoggingSystem.class,
			NotLog4j2LoggingSystem::new);

	/** The test class path without Log4j2's core: the keep-Logback route. */
	private static final FilteredClassLoader WITHOUT_LOG4J_CORE = new FilteredClassLoader(
			(name) -> name.startsWith("org.apache.logging.log4j.core") || name.equals("log4j2-test.xml"));

	@TempDir
	Path root;

	private ClassLoader classPathWith(String... resources) throws IOException {
		return classPathWith(getClass().getClassLoader(), resources);
	}

	private ClassLoader classPathWith(ClassLoader parent, String... resources) throws IOException {
		for (String resource : resources) {
			Path file = this.root.resolve(resource);
			Files.createDirectories(file.getParent());
			Files.writeString(file, "<configuration/>");
		}
		return new URLClassLoader(new URL[] { this.root.toUri().toURL() }, parent);
	}

	/**
	 * A logging system whose class is named as Boot's Logback one (which cannot load
	 * here: the tests run without Logback), defined in a class loader of its own.
	 */
	private static LoggingSystem namedAsBootsLogbackSystem() {
		String name = "org.springframework.boot.logging.logback.LogbackLoggingSystem";
		String superName = "org/springframework/boot/logging/LoggingSystem";
		ClassWriter writer = new ClassWriter(0);
		writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, name.replace('.', '/'), null, superName, null);
		MethodVisitor constructor = writer.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
		constructor.visitCode();
		constructor.visitVarInsn(Opcodes.ALOAD, 0);
		constructor.visitMethodInsn(Opcodes.INVOKESPECIAL, superName, "<init>", "()V", false);
		constructor.visitInsn(Opcodes.RETURN);
		constructor.visitMaxs(1, 1);
		constructor.visitEnd();
		writer.visitEnd();
		byte[] bytes = writer.toByteArray();
		ClassLoader loader = new ClassLoader(IgnoredLoggingConfigurationTests.class.getClassLoader()) {

			@Override
			protected Class<?> loadClass(String className, boolean resolve) throws ClassNotFoundException {
				if (!className.equals(name)) {
					return super.loadClass(className, resolve);
				}
				synchronized (getClassLoadingLock(className)) {
					Class<?> loaded = findLoadedClass(className);
					return (loaded != null) ? loaded : defineClass(className, bytes, 0, bytes.length);
				}
			}

		};
		try {
			return (LoggingSystem) loader.loadClass(name).getDeclaredConstructor().newInstance();
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static List<Finding> findings(FindingsStore store, String id) {
		return store.findings().stream().filter((finding) -> finding.id().equals(id)).toList();
	}

	@Test
	void theLogbackNamesAreBootsStandardLocationsThenTheirSpringForms() throws IOException {
		// Logback is not on this class path, so Boot's method is read from its byte code.
		List<String> standard = new ArrayList<>();
		try (InputStream type = LoggingSystem.class
			.getResourceAsStream("/org/springframework/boot/logging/logback/LogbackLoggingSystem.class")) {
			new ClassReader(type).accept(new ClassVisitor(Opcodes.ASM9) {
				@Override
				public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
						String[] exceptions) {
					return !name.equals("getStandardConfigLocations") ? null : new MethodVisitor(Opcodes.ASM9) {
						@Override
						public void visitLdcInsn(Object value) {
							standard.add((String) value);
						}
					};
				}
			}, 0);
		}
		List<String> spring = standard.stream().map((name) -> name.replaceFirst("(\\.[a-z]+)$", "-spring$1")).toList();
		List<String> expected = new ArrayList<>(standard);
		expected.addAll(spring);
		assertThat(standard).contains("logback.xml");
		assertThat(LoggingConfigurationFiles.LOGBACK.standardNames()).isEqualTo(expected);
	}

	@Test
	void aLogbackSpringXmlUnderLog4j2IsReportedByItsResourceNameWithBothWaysOut() throws IOException {
		this.onLog4j2.withClassLoader(classPathWith("logback-spring.xml")).run((context) -> {
			List<Finding> found = findings(context.getBean(FindingsStore.class), "logging.logback-config-ignored");
			assertThat(found).singleElement().satisfies((finding) -> {
				assertThat(finding.subject()).isEqualTo("logback-spring.xml");
				assertThat(finding.message()).contains("logback-spring.xml (from the class path)")
					.doesNotContain(this.root.toString());
				assertThat(finding.fix()).contains("log4j2-spring.xml")
					.contains("exclude spring-boot-starter-log4j2 from the starter's dependency")
					.contains("remove the spring-boot-starter-logging exclusion");
			});
		});
	}

	@Test
	void theLogbackFileBootWouldHaveLoadedIsTheOneNamed() throws IOException {
		this.onLog4j2.withClassLoader(classPathWith("logback-spring.xml", "logback.xml", "logback-test.xml"))
			.run((context) -> assertThat(
					findings(context.getBean(FindingsStore.class), "logging.logback-config-ignored"))
				.singleElement()
				.satisfies((finding) -> assertThat(finding.subject()).isEqualTo("logback-test.xml")));
	}

	@Test
	void withoutALogbackFileNothingIsSaid() throws IOException {
		this.onLog4j2.withClassLoader(classPathWith("elsewhere/logback-spring.xml", "log4j2-spring.xml"))
			.run((context) -> assertThat(context.getBean(FindingsStore.class).findings()).isEmpty());
	}

	@Test
	void loggingConfigNamingALogbackFileIsReportedByItsFileNameOnly() throws IOException {
		classPathWith("conf/logback-prod.xml");
		String location = this.root.resolve("conf/logback-prod.xml").toString();
		this.onLog4j2.withPropertyValues("logging.config=" + location).run((context) -> {
			List<Finding> found = findings(context.getBean(FindingsStore.class), "logging.logback-config-ignored");
			assertThat(found).singleElement().satisfies((finding) -> {
				assertThat(finding.subject()).isEqualTo("logback-prod.xml");
				assertThat(finding.message()).contains("logback-prod.xml (from logging.config)");
				assertThat(finding.toString()).doesNotContain(this.root.toString());
			});
		});
	}

	@Test
	void loggingConfigNamingALog4j2FileIsWhatBootReadsSoAnUnusedLogbackFileIsNotReported() throws IOException {
		this.onLog4j2.withClassLoader(classPathWith("logback-spring.xml"))
			.withPropertyValues("logging.config=classpath:log4j2-prod.xml")
			.run((context) -> assertThat(context.getBean(FindingsStore.class).findings()).isEmpty());
	}

	@Test
	void theFindingIsSilencedLikeAnyOther() throws IOException {
		this.onLog4j2.withClassLoader(classPathWith("logback-spring.xml"))
			.withPropertyValues("safe-defaults.checks.disabled=logging.logback-config-ignored")
			.run((context) -> assertThat(context.getBean(FindingsStore.class).findings()).isEmpty());
	}

	@Test
	void aLog4j2FileUnderAnotherSystemIsNamedInTheNotLog4j2Finding() throws IOException {
		// The test class path's own log4j2-test.xml hidden: Log4j would read it before
		// log4j2-spring.xml.
		ClassLoader parent = new FilteredClassLoader(new ClassPathResource("log4j2-test.xml"));
		this.onAnotherSystem.withClassLoader(classPathWith(parent, "log4j2-spring.xml")).run((context) -> {
			List<Finding> found = findings(context.getBean(FindingsStore.class), "logging.not-log4j2");
			assertThat(found).singleElement().satisfies((finding) -> {
				assertThat(finding.message()).contains("log4j2-spring.xml (from the class path) is ignored")
					.doesNotContain("both on the class path");
				assertThat(finding.fix()).contains("<dependencies> (not <dependencyManagement>)")
					.contains("Log4j2 then reads log4j2-spring.xml")
					.contains("exclude spring-boot-starter-log4j2 from the starter's dependency");
			});
		});
	}

	@Test
	void underAnotherSystemWithoutALog4j2FileTheFindingNamesNone() throws IOException {
		ClassLoader parent = new FilteredClassLoader(new ClassPathResource("log4j2-test.xml"));
		this.onAnotherSystem.withClassLoader(classPathWith(parent, "config/log4j2-spring.xml")).run((context) -> {
			List<Finding> found = findings(context.getBean(FindingsStore.class), "logging.not-log4j2");
			assertThat(found).singleElement().satisfies((finding) -> {
				assertThat(finding.message()).doesNotContain("is ignored").contains("Neither Log4j2 nor Logback");
				assertThat(finding.subject()).isEqualTo("NotLog4j2LoggingSystem");
			});
		});
	}

	@Test
	void logbackAndLog4j2BothOnTheClassPathIsTheCauseTheFindingGivesWithBothRoutes() {
		this.onLogback.run((context) -> {
			List<Finding> found = findings(context.getBean(FindingsStore.class), "logging.not-log4j2");
			assertThat(found).singleElement().satisfies((finding) -> {
				assertThat(finding.subject()).isEqualTo("LogbackLoggingSystem");
				assertThat(finding.message()).contains("Logback and Log4j2 are both on the class path")
					.contains("Boot tries Logback first")
					.contains("log4j-slf4j2-impl cannot be present with log4j-to-slf4j")
					.contains("multiple providers");
				assertThat(finding.fix()).contains("spring-boot-starter with spring-boot-starter-logging excluded")
					.contains("exclude spring-boot-starter-log4j2 from the starter's dependency");
			});
		});
	}

	@Test
	void bothOnTheClassPathWithALog4j2FileSaysBoth() throws IOException {
		this.onLogback.withClassLoader(classPathWith("log4j2.xml")).run((context) -> {
			List<Finding> found = findings(context.getBean(FindingsStore.class), "logging.not-log4j2");
			assertThat(found).singleElement()
				.satisfies((finding) -> assertThat(finding.message()).contains("both on the class path")
					.contains("Log4j2 configuration log4j2-test.xml (from the class path) is ignored"));
		});
	}

	@Test
	void theKeepLogbackRouteIsNotReportedAsAFailedLog4j2Route() {
		// Positive control: the same Logback system with Log4j2's core present is
		// reported
		// (logbackAndLog4j2BothOnTheClassPathIsTheCauseTheFindingGivesWithBothRoutes).
		this.onLogback.withClassLoader(WITHOUT_LOG4J_CORE)
			.run((context) -> assertThat(context.getBean(FindingsStore.class).findings()).isEmpty());
	}

	@Test
	void aLog4j2FileOnTheKeepLogbackRouteIsNamedWithBothWaysOut() throws IOException {
		this.onLogback.withClassLoader(classPathWith(WITHOUT_LOG4J_CORE, "log4j2-spring.xml")).run((context) -> {
			assertThat(context.getBean(FindingsStore.class).findings()).extracting(Finding::id)
				.containsExactly("logging.log4j2-config-ignored");
			Finding finding = findings(context.getBean(FindingsStore.class), "logging.log4j2-config-ignored").get(0);
			assertThat(finding.subject()).isEqualTo("log4j2-spring.xml");
			assertThat(finding.message()).contains("log4j2-spring.xml (from the class path) is a Log4j2 configuration")
				.contains("Logback is the logging system");
			assertThat(finding.fix()).contains("Rewrite log4j2-spring.xml as logback-spring.xml")
				.contains("remove the spring-boot-starter-log4j2 exclusion");
		});
	}

	@Test
	void loggingConfigNamingALog4j2FileOnTheKeepLogbackRouteIsReported() {
		this.onLogback.withClassLoader(WITHOUT_LOG4J_CORE)
			.withPropertyValues("logging.config=classpath:log4j2-prod.xml")
			.run((context) -> assertThat(
					findings(context.getBean(FindingsStore.class), "logging.log4j2-config-ignored"))
				.singleElement()
				.satisfies((finding) -> assertThat(finding.message()).contains("(from logging.config)")));
	}

}
