package dev.safedefaults;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.jayway.jsonpath.JsonPath;
import dev.safedefaults.check.FindingCatalogue;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Property names, finding ids and metric names are public API: each is documented in the
 * generated configuration metadata (so IDEs complete it) and in the README's tables the
 * day it appears; and the README and the pages under {@code docs/} link only to what
 * exists.
 */
class DocumentationTests {

	private static final Path REPOSITORY = Path.of("..");

	/**
	 * {@code `Class#method`}, {@code `Class`} or {@code `#method`} (of the class named
	 * before it).
	 */
	private static final Pattern TEST_REFERENCE = Pattern.compile("`([A-Z]\\w*(?:Tests|IT))?(?:#(\\w+))?`");

	private static final Pattern METRIC_NAME = Pattern.compile("\"(safedefaults\\.[a-z0-9.-]+)\"");

	private static String metadata() throws IOException {
		try (InputStream in = DocumentationTests.class
			.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
			assertThat(in).as("generated configuration metadata").isNotNull();
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
	}

	private static MarkdownDocument readme() {
		return MarkdownDocument.read(REPOSITORY.resolve("README.md"));
	}

	private static Set<String> readmeTable(String heading) {
		Set<String> firstColumn = readme().firstColumnUnder(heading);
		assertThat(firstColumn).as("the README's table under '## %s'", heading).isNotEmpty();
		return firstColumn;
	}

	@Test
	void everyPropertyHasADescriptionForTheIde() throws IOException {
		List<Map<String, Object>> properties = JsonPath.read(metadata(), "$.properties[*]");
		assertThat(properties).isNotEmpty();
		assertThat(properties).allSatisfy(
				(property) -> assertThat(property.get("description")).as("description of %s", property.get("name"))
					.asString()
					.isNotBlank());
	}

	@Test
	void everyPropertyIsInTheReadmesPropertyTable() throws IOException {
		List<String> names = JsonPath.read(metadata(), "$.properties[*].name");
		assertThat(readmeTable("Properties")).as("the README's property table").containsAll(names);
	}

	@Test
	void everyPropertyOfTheReadmesTableIsKnownToTheIde() throws IOException {
		// A key read without a properties field (a condition, a post-processor) is
		// declared in
		// additional metadata; this catches one that is only in the README.
		List<String> names = JsonPath.read(metadata(), "$.properties[*].name");
		assertThat(names).as("the configuration metadata").containsAll(readmeTable("Properties"));
	}

	@Test
	void everyMetricIsInTheReadmesMetricsTable() throws IOException {
		List<String> names;
		try (Stream<Path> sources = Files.walk(Path.of("src", "main", "java"))) {
			names = sources.filter((source) -> source.toString().endsWith(".java"))
				.flatMap(DocumentationTests::metricNames)
				.toList();
		}
		assertThat(names).as("metric names in the code").isNotEmpty();
		assertThat(readmeTable("Metrics")).as("the README's metrics table").containsAll(names);
	}

	@Test
	void everyRelativeLinkOfTheReadmeAndTheDocsPointsToAFileAndAnchorThatExist() throws IOException {
		List<MarkdownDocument> documents;
		try (Stream<Path> docs = Files.list(REPOSITORY.resolve("docs"))) {
			documents = Stream
				.concat(Stream.of(REPOSITORY.resolve("README.md"), REPOSITORY.resolve("BENCHMARKS.md")),
						docs.filter((doc) -> doc.toString().endsWith(".md")).sorted())
				.map(MarkdownDocument::read)
				.toList();
		}
		assertThat(documents).allSatisfy((document) -> assertThat(document.relativeLinks())
			.allSatisfy((link) -> assertLinkResolves(document, link)));
	}

	private static void assertLinkResolves(MarkdownDocument document, String link) {
		int hash = link.indexOf('#');
		String path = (hash < 0) ? link : link.substring(0, hash);
		Path target = path.isEmpty() ? document.file() : document.file().resolveSibling(path).normalize();
		assertThat(target).as("%s links to %s", document.file(), link).exists();
		if (hash >= 0) {
			assertThat(target.toString()).as("%s links to an anchor of %s", document.file(), link).endsWith(".md");
			assertThat(MarkdownDocument.read(target).anchors()).as("%s links to %s", document.file(), link)
				.contains(link.substring(hash + 1));
		}
	}

	private static Stream<String> metricNames(Path source) {
		try {
			Matcher matcher = METRIC_NAME.matcher(Files.readString(source));
			return matcher.results().map((result) -> result.group(1)).toList().stream();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Test
	void theReadmesCatalogueRowsSayWhatTheDeclarationsSay() {
		Map<String, List<String>> rows = new LinkedHashMap<>();
		for (List<String> row : readme().rowsUnder("Findings catalogue")) {
			rows.put(row.get(0).replace("`", ""), row);
		}
		assertThat(rows.keySet()).as("README catalogue rows")
			.containsExactlyInAnyOrderElementsOf(FindingCatalogue.ids());
		assertThat(FindingCatalogue.entries()).allSatisfy((type) -> {
			List<String> row = rows.get(type.id());
			assertThat(row.get(1)).as("severity of %s in the README", type.id()).isEqualTo(type.severity().name());
			assertThat(row.get(2).replace("`", "")).as("meaning of %s in the README", type.id())
				.isEqualTo(type.title());
		});
	}

	@Test
	void theIdeCompletesEveryFindingIdForDisabled() throws IOException {
		List<String> hinted = JsonPath.read(metadata(),
				"$.hints[?(@.name == 'safe-defaults.checks.disabled')].values[*].value");
		assertThat(hinted).containsExactlyInAnyOrderElementsOf(FindingCatalogue.ids());
	}

	@Test
	void everyTestTheTestingPageNamesExists() throws IOException {
		// docs/testing.md says which test proves each README promise: a renamed or
		// deleted test
		// must not leave the claim pointing at nothing.
		Map<String, Path> testSources = new LinkedHashMap<>();
		try (Stream<Path> files = Files.walk(REPOSITORY)) {
			files
				.filter((file) -> file.toString().endsWith(".java")
						&& file.toString().contains("src" + File.separator + "test")
						&& !file.toString().contains(File.separator + "target" + File.separator))
				.forEach((file) -> testSources.putIfAbsent(file.getFileName().toString().replace(".java", ""), file));
		}
		List<List<String>> rows = MarkdownDocument.read(REPOSITORY.resolve("docs/testing.md"))
			.rowsUnder("Which test proves each promise");
		assertThat(rows).as("the promises table of docs/testing.md").isNotEmpty();
		int named = 0;
		for (List<String> row : rows) {
			String testClass = null;
			Matcher reference = TEST_REFERENCE.matcher(row.get(1));
			while (reference.find()) {
				testClass = (reference.group(1) != null) ? reference.group(1) : testClass;
				assertThat(testClass).as("a test class before %s in '%s'", reference.group(), row.get(0)).isNotNull();
				Path source = testSources.get(testClass);
				assertThat(source).as("the test class %s named in docs/testing.md", testClass).isNotNull();
				if (reference.group(2) != null) {
					assertThat(Files.readString(source))
						.as("%s#%s named in docs/testing.md", testClass, reference.group(2))
						.containsPattern("void " + reference.group(2) + "\\(");
				}
				named++;
			}
		}
		assertThat(named).as("tests named in docs/testing.md").isGreaterThan(rows.size());
	}

}
