package dev.safedefaults.web;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.loader.launch.LaunchedClassLoader;
import org.springframework.boot.loader.net.protocol.Handlers;
import org.springframework.boot.loader.net.protocol.jar.JarUrl;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.FileSystemResource;
import org.springframework.core.io.FileSystemResourceLoader;
import org.springframework.mock.web.MockServletContext;
import org.springframework.web.context.support.ServletContextResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which locations' misses may be remembered: class-path locations of a class loader that
 * reads only jars; never one that has a directory on its class path, nor a file-system
 * location.
 */
class UnchangingLocationsTests {

	@TempDir
	Path dir;

	@Test
	void aClassPathLocationOfJarsOnlyIsUnchanging() throws IOException {
		try (URLClassLoader jars = new URLClassLoader(new URL[] { jar("app.jar"), jar("lib.jar") }, null)) {
			assertThat(new UnchangingLocations().isUnchanging(new ClassPathResource("static/", jars))).isTrue();
			assertThat(new UnchangingLocations().isUnchanging(new ClassPathResource("public/", jars)))
				.as("absent from every jar")
				.isTrue();
		}
	}

	/**
	 * {@code java -jar} on a Spring Boot fat jar: the launcher's class loader reads
	 * {@code BOOT-INF/classes/} and every {@code BOOT-INF/lib/*.jar} through
	 * {@code jar:nested:} URLs (a nested directory and nested jars, never a directory on
	 * disk), its parent the fat jar itself. Built here as {@code JarLauncher} builds it.
	 */
	@Test
	void aClassPathLocationInsideASpringBootFatJarIsUnchanging() throws IOException {
		Path fatJar = fatJar();
		Handlers.register();
		URL[] urls = { JarUrl.create(fatJar.toFile(), "BOOT-INF/classes/"),
				JarUrl.create(fatJar.toFile(), "BOOT-INF/lib/lib.jar") };
		try (URLClassLoader system = new URLClassLoader(new URL[] { fatJar.toUri().toURL() },
				ClassLoader.getPlatformClassLoader());
				LaunchedClassLoader launched = new LaunchedClassLoader(false, urls, system)) {
			List<String> roots = new ArrayList<>();
			Collections.list(launched.getResources("")).forEach((url) -> roots.add(url.toString()));
			assertThat(roots).as("what the launcher names as class-path roots")
				.isNotEmpty()
				.allMatch((url) -> url.startsWith("jar:nested:"));
			assertThat(launched.getResource("static/site.css")).as("a resource of a nested jar").isNotNull();
			assertThat(new UnchangingLocations().isUnchanging(new ClassPathResource("static/", launched)))
				.as("a location held by the classes and a nested jar")
				.isTrue();
			assertThat(new UnchangingLocations().isUnchanging(new ClassPathResource("public/", launched)))
				.as("absent from every archive")
				.isTrue();
		}
	}

	@Test
	void aClassPathLocationIsNotUnchangingWhenADirectoryIsOnTheClassPath() throws IOException {
		Path classes = Files.createDirectories(this.dir.resolve("classes"));
		try (URLClassLoader withDirectory = new URLClassLoader(new URL[] { jar("app.jar"), classes.toUri().toURL() },
				null)) {
			assertThat(new UnchangingLocations().isUnchanging(new ClassPathResource("static/", withDirectory)))
				.as("a file copied into the directory is served at once")
				.isFalse();
		}
	}

	/**
	 * Boot adds the servlet context's {@code /} to the {@code /**} handler: in a packaged
	 * application the embedded server's document root is an empty temporary directory,
	 * and the rest is the jars' {@code META-INF/resources}.
	 */
	@Test
	void aServletContextLocationOfAPackagedApplicationWithAnEmptyDocumentRootIsUnchanging() throws IOException {
		Path documentRoot = Files.createDirectories(this.dir.resolve("tomcat-docbase"));
		try (URLClassLoader jars = new URLClassLoader(new URL[] { jar("app.jar") }, null)) {
			assertThat(withContextClassLoader(jars, () -> new UnchangingLocations().isUnchanging(root(documentRoot))))
				.isTrue();
			Files.writeString(documentRoot.resolve("index.html"), "<html></html>");
			assertThat(withContextClassLoader(jars, () -> new UnchangingLocations().isUnchanging(root(documentRoot))))
				.as("a document root that holds a file (Boot's public/ or static/ of the working directory)")
				.isFalse();
		}
	}

	@Test
	void aServletContextLocationIsNotUnchangingWhenADirectoryIsOnTheClassPath() throws IOException {
		Path documentRoot = Files.createDirectories(this.dir.resolve("tomcat-docbase"));
		Path classes = Files.createDirectories(this.dir.resolve("classes"));
		try (URLClassLoader withDirectory = new URLClassLoader(new URL[] { jar("app.jar"), classes.toUri().toURL() },
				null)) {
			assertThat(withContextClassLoader(withDirectory,
					() -> new UnchangingLocations().isUnchanging(root(documentRoot))))
				.as("META-INF/resources of a directory on the class path is served at once")
				.isFalse();
		}
	}

	private static ServletContextResource root(Path documentRoot) {
		return new ServletContextResource(
				new MockServletContext("file:" + documentRoot.toAbsolutePath(), new FileSystemResourceLoader()), "/");
	}

	private static boolean withContextClassLoader(ClassLoader classLoader, BooleanSupplier call) {
		Thread thread = Thread.currentThread();
		ClassLoader previous = thread.getContextClassLoader();
		thread.setContextClassLoader(classLoader);
		try {
			return call.getAsBoolean();
		}
		finally {
			thread.setContextClassLoader(previous);
		}
	}

	@Test
	void aFileSystemLocationIsNotUnchanging() {
		assertThat(new UnchangingLocations().isUnchanging(new FileSystemResource(this.dir.toString() + "/"))).isFalse();
	}

	/** A fat jar as Spring Boot lays it out: classes, and a nested jar stored. */
	private Path fatJar() throws IOException {
		byte[] lib = Files.readAllBytes(Path.of(jar("lib.jar").getPath()));
		Path fatJar = this.dir.resolve("app-exec.jar");
		try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(fatJar))) {
			out.putNextEntry(new JarEntry("BOOT-INF/"));
			out.putNextEntry(new JarEntry("BOOT-INF/classes/"));
			out.putNextEntry(new JarEntry("BOOT-INF/classes/static/"));
			out.putNextEntry(new JarEntry("BOOT-INF/classes/static/app.css"));
			out.write("body {}".getBytes());
			out.putNextEntry(new JarEntry("BOOT-INF/lib/"));
			JarEntry nested = new JarEntry("BOOT-INF/lib/lib.jar");
			nested.setMethod(ZipEntry.STORED);
			nested.setSize(lib.length);
			nested.setCompressedSize(lib.length);
			CRC32 crc = new CRC32();
			crc.update(lib);
			nested.setCrc(crc.getValue());
			out.putNextEntry(nested);
			out.write(lib);
			out.closeEntry();
		}
		return fatJar;
	}

	private URL jar(String name) throws IOException {
		Path jar = this.dir.resolve(name);
		try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
			out.putNextEntry(new JarEntry("static/"));
			out.putNextEntry(new JarEntry("static/site.css"));
			OutputStream entry = out;
			entry.write("body {}".getBytes());
			out.closeEntry();
		}
		return jar.toUri().toURL();
	}

}
