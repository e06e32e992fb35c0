package dev.safedefaults.consumers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/installing.md's Maven snippets are the ones the consumer projects use, byte for
 * byte up to indentation (the pom's {@code @project.version@} and
 * {@code @spring-cloud.version@} stand for the versions the build tests); the README
 * shows no other XML.
 */
class InstallSnippetsTests {

	private static final Path INSTALLING = Path.of(System.getProperty("installing.md", "../docs/installing.md"));

	private static final Path README = Path.of(System.getProperty("readme.md", "../README.md"));

	private static final Path CONSUMERS = Path.of(System.getProperty("consumers.sources", "src/it"));

	/**
	 * Which snippets each consumer project must use: the shapes docs/installing.md
	 * promises.
	 */
	private static final Map<String, Set<String>> EXPECTED = Map.of("boot40-parent", Set.of("maven-starter"),
			"boot40-bom", Set.of("maven-boot-bom", "maven-starter"), "boot41-parent-openfeign",
			Set.of("maven-spring-cloud", "maven-starter"), "boot40-postgresql-jpa", Set.of("maven-starter"),
			"boot40-logback", Set.of("maven-starter", "maven-starter-keep-logback"), "boot-matrix",
			Set.of("maven-starter"), "boot41-webflux", Set.of("maven-starter"));

	private static Map<String, InstallSnippets.Block> documented() {
		return InstallSnippets.named(INSTALLING);
	}

	private static String filtered(String pomSnippet) {
		return pomSnippet.replace("@project.version@", System.getProperty("project.version", "0.1.0-SNAPSHOT"))
			.replace("@spring-cloud.version@", springCloudVersion());
	}

	private static String springCloudVersion() {
		// The version the whole build uses (root pom), which the consumer poms get by
		// filtering.
		try {
			String pom = Files.readString(Path.of(System.getProperty("root.pom", "../pom.xml")));
			int start = pom.indexOf("<spring-cloud.version>") + "<spring-cloud.version>".length();
			return pom.substring(start, pom.indexOf("</spring-cloud.version>", start)).strip();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static List<Path> consumerPoms() throws IOException {
		try (Stream<Path> projects = Files.list(CONSUMERS)) {
			return projects.map((project) -> project.resolve("pom.xml")).filter(Files::isRegularFile).sorted().toList();
		}
	}

	@Test
	void everyConsumerProjectUsesTheSnippetsOfItsShape() throws IOException {
		List<Path> poms = consumerPoms();
		assertThat(poms).extracting((pom) -> pom.getParent().getFileName().toString())
			.containsExactlyInAnyOrderElementsOf(EXPECTED.keySet());
		for (Path pom : poms) {
			Set<String> used = InstallSnippets.inPom(pom)
				.stream()
				.map(Map.Entry::getKey)
				.collect(Collectors.toCollection(TreeSet::new));
			assertThat(used).as("snippets in %s", pom)
				.isEqualTo(new TreeSet<>(EXPECTED.get(pom.getParent().getFileName().toString())));
		}
	}

	@Test
	void eachConsumerPomSnippetIsTheDocumentedOne() throws IOException {
		Map<String, InstallSnippets.Block> documented = documented();
		List<Path> poms = consumerPoms();
		assertThat(poms).as("consumer poms under %s", CONSUMERS).isNotEmpty();
		for (Path pom : poms) {
			List<Map.Entry<String, String>> snippets = InstallSnippets.inPom(pom);
			assertThat(snippets).as("snippets marked in %s", pom).isNotEmpty();
			for (Map.Entry<String, String> snippet : snippets) {
				InstallSnippets.Block block = documented.get(snippet.getKey());
				assertThat(block).as("docs/installing.md snippet %s used by %s", snippet.getKey(), pom).isNotNull();
				assertThat(block.language()).isEqualTo("xml");
				assertThat(InstallSnippets.normalize(filtered(snippet.getValue())))
					.as("%s's snippet %s against docs/installing.md", pom, snippet.getKey())
					.isEqualTo(InstallSnippets.normalize(block.text()));
			}
		}
	}

	@Test
	void everyDocumentedMavenSnippetIsBuiltByAConsumerProject() throws IOException {
		Set<String> used = new TreeSet<>();
		for (Path pom : consumerPoms()) {
			InstallSnippets.inPom(pom).forEach((snippet) -> used.add(snippet.getKey()));
		}
		Set<String> xml = documented().entrySet()
			.stream()
			.filter((entry) -> entry.getValue().language().equals("xml"))
			.map(Map.Entry::getKey)
			.collect(Collectors.toCollection(TreeSet::new));
		assertThat(xml).isNotEmpty();
		assertThat(used).containsAll(xml);
	}

	@Test
	void theGradleSnippetsExcludeBootsLoggingFromEveryConfigurationAndNameTheStarter() {
		Map<String, InstallSnippets.Block> documented = documented();
		String version = System.getProperty("project.version", "0.1.0-SNAPSHOT");
		for (String name : List.of("gradle-kotlin", "gradle-groovy")) {
			String text = documented.get(name).text();
			assertThat(text).contains("configurations.configureEach")
				.contains("spring-boot-starter-logging")
				.contains("dev.safedefaults:safe-defaults-spring-boot-starter:" + version);
		}
	}

	@Test
	void theReadmeShowsOnlyTestedXml() {
		Set<String> tested = documented().values()
			.stream()
			.map((block) -> InstallSnippets.normalize(block.text()))
			.collect(Collectors.toSet());
		List<String> blocks = InstallSnippets.blocks(README, "xml");
		// The README shows the starter's dependency: a parse that finds no block checks
		// nothing.
		assertThat(blocks).as("XML blocks found in %s", README).isNotEmpty();
		for (String block : blocks) {
			assertThat(tested).as("README's XML block is one of docs/installing.md's tested snippets:%n%s", block)
				.contains(InstallSnippets.normalize(block));
		}
	}

}
