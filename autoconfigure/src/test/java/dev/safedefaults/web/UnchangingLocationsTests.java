package dev.safedefaults.web;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.FileSystemResource;

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

	@Test
	void aFileSystemLocationIsNotUnchanging() {
		assertThat(new UnchangingLocations().isUnchanging(new FileSystemResource(this.dir.toString() + "/"))).isFalse();
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
