package dev.safedefaults.runtime;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import dev.safedefaults.runtime.ThrowSites.Frame;
import dev.safedefaults.testsupport.OnEveryJdk;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

@OnEveryJdk
class ThrowSitesTests {

	private static final String CNFE = "java.lang.ClassNotFoundException";

	private static Frame jdk(String className, String method) {
		return new Frame(className, method, 1, true);
	}

	private static Frame app(String className, String method, int line) {
		return new Frame(className, method, line, false);
	}

	/**
	 * A class-not-found in a Boot fat jar, as the flight recorder records it (incident
	 * 1).
	 */
	private static final List<Frame> FAT_JAR_LOOKUP = List.of(jdk("java.lang.Throwable", "<init>"),
			jdk("java.lang.ClassNotFoundException", "<init>"), jdk("java.net.URLClassLoader", "findClass"),
			jdk("java.lang.ClassLoader", "loadClass"),
			app("org.springframework.boot.loader.net.protocol.jar.JarUrlClassLoader", "loadClass", 95),
			app("org.springframework.boot.loader.launch.LaunchedClassLoader", "loadClass", 79),
			jdk("java.lang.Class", "forName"), app("org.springframework.util.ClassUtils", "forName", 308),
			app("org.springframework.util.ClassUtils", "isPresent", 379), app("com.example.Converters", "build", 42),
			app("com.example.FeignClient", "call", 17));

	@Test
	void classLoaderFramesAreSkippedSoTheCallerShows() {
		assertThat(ThrowSites.siteFrames(CNFE, FAT_JAR_LOOKUP)).containsExactly(
				"org.springframework.util.ClassUtils.forName:308", "org.springframework.util.ClassUtils.isPresent:379",
				"com.example.Converters.build:42");
	}

	@Test
	void theThrowablesOwnConstructorsAreSkipped() {
		List<Frame> frames = List.of(jdk("java.lang.Throwable", "<init>"), jdk("java.lang.RuntimeException", "<init>"),
				app("org.springframework.core.NestedRuntimeException", "<init>", 10),
				app("org.springframework.beans.NotWritablePropertyException", "<init>", 20),
				app("org.springframework.beans.BeanWrapperImpl", "setPropertyValue", 30));
		assertThat(ThrowSites.siteFrames("org.springframework.beans.NotWritablePropertyException", frames))
			.containsExactly("org.springframework.beans.BeanWrapperImpl.setPropertyValue:30");
	}

	@Test
	void aConstructorThatThrowsIsASite() {
		List<Frame> frames = List.of(jdk("java.lang.Throwable", "<init>"),
				jdk("java.lang.IllegalStateException", "<init>"), app("com.example.Settings", "<init>", 5),
				app("com.example.Main", "main", 9));
		assertThat(ThrowSites.siteFrames("java.lang.IllegalStateException", frames))
			.containsExactly("com.example.Settings.<init>:5", "com.example.Main.main:9");
	}

	@Test
	void lambdaFramesAreSkipped() {
		List<Frame> frames = List.of(jdk("java.lang.Class", "forName"), app("com.example.Lookups", "find", 3),
				app("com.example.Lookups$$Lambda$942+0x00007fd180306438.888378046", "apply", -1),
				app("com.example.Service", "handle", 8));
		assertThat(ThrowSites.siteFrames(CNFE, frames)).containsExactly("com.example.Lookups.find:3",
				"com.example.Service.handle:8");
	}

	@Test
	void jdkClassesAreKnownByTheirLoaderOrTheirPackage() {
		assertThat(ThrowSites.isJdk("java.lang.Class", "bootstrap")).isTrue();
		assertThat(ThrowSites.isJdk("java.sql.DriverManager", "platform")).isTrue();
		assertThat(ThrowSites.isJdk("jdk.internal.reflect.GeneratedMethodAccessor12", null)).isTrue();
		assertThat(ThrowSites.isJdk("com.example.Main", "app")).isFalse();
		assertThat(ThrowSites.isJdk("org.springframework.util.ClassUtils", null)).isFalse();
	}

	@Test
	void theFiveLargestSitesAreKeptWithTheirShares() {
		ThrowSites.Counter counter = new ThrowSites.Counter();
		for (int site = 1; site <= 7; site++) {
			for (int i = 0; i < site * 10; i++) {
				counter.add(CNFE, List.of("com.example.Site" + site + ".run:1"));
			}
		}
		ThrowSites sites = counter.toSites(Instant.parse("2026-01-01T00:00:00Z"), Duration.ofSeconds(1));
		assertThat(sites.total()).isEqualTo(280);
		assertThat(sites.top()).extracting(ThrowSites.Site::count).containsExactly(70L, 60L, 50L, 40L, 30L);
		assertThat(sites.top().get(0).share()).isEqualTo(70 / 280.0);
		assertThat(sites.describe()).startsWith("25% java.lang.ClassNotFoundException at com.example.Site7.run:1; 21% ")
			.contains("of 280 throws recorded in 1000 ms at 2026-01-01T00:00:00Z");
	}

	@Test
	void aStackWithOnlyJdkFramesIsStillASite() {
		ThrowSites.Counter counter = new ThrowSites.Counter();
		counter.add("java.io.EOFException", ThrowSites.siteFrames("java.io.EOFException",
				List.of(jdk("java.io.DataInputStream", "readFully"), jdk("java.lang.Thread", "run"))));
		assertThat(counter.toSites(Instant.EPOCH, Duration.ofSeconds(1)).describe())
			.startsWith("100% java.io.EOFException (JDK frames only)");
	}

}
