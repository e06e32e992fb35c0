package dev.safedefaults.httpclient.feign;

import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FeatureStatus;
import dev.safedefaults.check.FeatureStatusReporter;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code feign} status reporter when OpenFeign is absent. Covers
 * {@code FeignFeatureStatus} (it says the library is absent) and
 * {@code FeignClientsStatus}, whose signature names no Feign type: the reporter loads and
 * reports in a class loader without OpenFeign.
 */
class FeignFeatureStatusTests {

	@Test
	void withoutOpenFeignOnlyTheReporterIsThereAndItSaysTheLibraryIsAbsent() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(SafeDefaultsAutoConfiguration.class, FeignConvertersAutoConfiguration.class))
			.withClassLoader(new FilteredClassLoader("feign.", "org.springframework.cloud.openfeign."))
			.run((context) -> {
				assertThat(context).hasSingleBean(FeatureStatusReporter.class)
					.doesNotHaveBean(SharedFeignConverters.class)
					.doesNotHaveBean(PerCallConvertersCheck.class)
					.doesNotHaveBean(DefaultConvertersCheck.class);
				FeatureStatus status = context.getBean(FeatureStatusReporter.class).status();
				assertThat(status.feature()).isEqualTo("feign");
				assertThat(status.enabled()).isFalse();
				assertThat(status.reason()).startsWith("library absent");
			});
	}

	/**
	 * A {@link FilteredClassLoader} only hides classes from conditions: the starter's own
	 * classes still load through the test's class loader, which sees OpenFeign. Here the
	 * application runs in a class loader that has no OpenFeign jar at all, so any Feign
	 * class the reporter or the auto-configuration touched would fail it.
	 */
	@Test
	void theReporterLoadsNoFeignClassWhenOpenFeignIsNotOnTheClassPath() throws Exception {
		ClassLoader previous = Thread.currentThread().getContextClassLoader();
		try (URLClassLoader withoutOpenFeign = new URLClassLoader(classPathWithoutOpenFeign(),
				ClassLoader.getPlatformClassLoader())) {
			Thread.currentThread().setContextClassLoader(withoutOpenFeign);
			Class<?> contextType = withoutOpenFeign
				.loadClass("org.springframework.context.annotation.AnnotationConfigApplicationContext");
			Object context = contextType.getConstructor().newInstance();
			contextType.getMethod("setClassLoader", ClassLoader.class).invoke(context, withoutOpenFeign);
			Class<?>[] configurations = { withoutOpenFeign.loadClass(SafeDefaultsAutoConfiguration.class.getName()),
					withoutOpenFeign.loadClass(FeignConvertersAutoConfiguration.class.getName()) };
			contextType.getMethod("register", Class[].class).invoke(context, (Object) configurations);
			contextType.getMethod("refresh").invoke(context);
			try {
				Class<?> reporterType = withoutOpenFeign.loadClass(FeatureStatusReporter.class.getName());
				Object reporter = contextType.getMethod("getBean", Class.class).invoke(context, reporterType);
				Object status = reporterType.getMethod("status").invoke(reporter);
				assertThat(status.toString()).contains("feature=feign", "enabled=false", "reason=library absent");
			}
			finally {
				contextType.getMethod("close").invoke(context);
			}
		}
		finally {
			Thread.currentThread().setContextClassLoader(previous);
		}
	}

	private static URL[] classPathWithoutOpenFeign() throws MalformedURLException {
		List<URL> urls = new ArrayList<>();
		for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
			if (!entry.isEmpty() && !entry.contains("openfeign")) {
				urls.add(new File(entry).toURI().toURL());
			}
		}
		return urls.toArray(URL[]::new);
	}

}
