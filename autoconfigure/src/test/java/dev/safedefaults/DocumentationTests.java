package dev.safedefaults;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
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
 * generated configuration metadata (so IDEs complete it) and on its reference page the
 * day it appears ({@code docs/properties.md}, {@code docs/metrics.md}, the catalogue of
 * {@code docs/findings.md}), and those pages list nothing the code does not declare; the
 * README and the pages under {@code docs/} link only to what exists. Covers
 * {@code FindingDeclarations} and {@code FindingType}: the catalogue of
 * {@code docs/findings.md} has one row per id the features declare (each feature's
 * declarations listed in {@code spring.factories}), with the severity and the title
 * declared.
 */
class DocumentationTests {

	private static final Path REPOSITORY = Path.of("..");

	/**
	 * {@code `Class#method`}, {@code `Class`} or {@code `#method`} (of the class named
	 * before it).
	 */
	private static final Pattern TEST_REFERENCE = Pattern.compile("`([A-Z]\\w*(?:Tests|IT))?(?:#(\\w+))?`");

	private static final Pattern METRIC_NAME = Pattern.compile("\"(safedefaults\\.[a-z0-9.-]+)\"");

	/**
	 * A cache the code binds Micrometer's Caffeine meters to, by its name in the tags.
	 */
	private static final Pattern CACHE_NAME = Pattern.compile("CACHE_NAME = \"([a-z0-9-]+)\"");

	/** A cache named in the metrics page's tags column. */
	private static final Pattern CACHE_TAG = Pattern.compile("`cache=([a-z0-9-]+)`");

	private static String metadata() throws IOException {
		try (InputStream in = DocumentationTests.class
			.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
			assertThat(in).as("generated configuration metadata").isNotNull();
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
	}

	private static MarkdownDocument page(String name) {
		return MarkdownDocument.read(REPOSITORY.resolve("docs").resolve(name));
	}

	private static Set<String> propertiesPage() {
		Set<String> firstColumn = page("properties.md").firstColumnUnder("Properties");
		assertThat(firstColumn).as("the table of docs/properties.md").isNotEmpty();
		return firstColumn;
	}

	private static List<List<String>> metricsPage() {
		List<List<String>> rows = page("metrics.md").rowsUnder("Metrics");
		assertThat(rows).as("the table of docs/metrics.md").isNotEmpty();
		return rows;
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
	void everyPropertyIsOnThePropertiesPage() throws IOException {
		List<String> names = JsonPath.read(metadata(), "$.properties[*].name");
		assertThat(propertiesPage()).as("the table of docs/properties.md").containsAll(names);
	}

	@Test
	void everyPropertyOfThePropertiesPageIsKnownToTheIde() throws IOException {
		// A key read without a properties field (a condition, a post-processor) is
		// declared in additional metadata; this catches one that is only on the page.
		List<String> names = JsonPath.read(metadata(), "$.properties[*].name");
		assertThat(names).as("the configuration metadata").containsAll(propertiesPage());
	}

	@Test
	void theMetricsPageListsExactlyTheMetersTheCodeRegisters() throws IOException {
		List<String> names = mainSources(METRIC_NAME);
		assertThat(names).as("metric names in the code").isNotEmpty();
		Set<String> documented = new LinkedHashSet<>();
		for (List<String> row : metricsPage()) {
			documented.addAll(MarkdownDocument.codeSpans(row.get(0)));
		}
		assertThat(documented.stream().filter((name) -> name.startsWith("safedefaults.")))
			.as("safedefaults.* meters of docs/metrics.md")
			.containsExactlyInAnyOrderElementsOf(Set.copyOf(names));
		// The rest are Micrometer's own cache meters, bound to the starter's caches.
		assertThat(documented).filteredOn((name) -> !name.startsWith("safedefaults."))
			.as("meters of docs/metrics.md that the code does not name")
			.allSatisfy((name) -> assertThat(name).startsWith("cache."));
	}

	@Test
	void theMetricsPageNamesExactlyTheCachesTheCodeMeters() throws IOException {
		Set<String> documented = new LinkedHashSet<>();
		for (List<String> row : metricsPage()) {
			Matcher tag = CACHE_TAG.matcher(row.get(2));
			while (tag.find()) {
				documented.add(tag.group(1));
			}
		}
		List<String> caches = mainSources(CACHE_NAME);
		assertThat(caches).as("cache names in the code").isNotEmpty();
		assertThat(documented).as("caches named in the tags of docs/metrics.md")
			.containsExactlyInAnyOrderElementsOf(Set.copyOf(caches));
	}

	private static List<String> mainSources(Pattern pattern) throws IOException {
		try (Stream<Path> sources = Files.walk(Path.of("src", "main", "java"))) {
			return sources.filter((source) -> source.toString().endsWith(".java"))
				.flatMap((source) -> matches(source, pattern))
				.toList();
		}
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

	private static Stream<String> matches(Path source, Pattern pattern) {
		try {
			Matcher matcher = pattern.matcher(Files.readString(source));
			return matcher.results().map((result) -> result.group(1)).toList().stream();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Test
	void theCatalogueRowsSayWhatTheDeclarationsSay() {
		Map<String, List<String>> rows = new LinkedHashMap<>();
		for (List<String> row : page("findings.md").rowsUnder("Findings catalogue")) {
			rows.put(row.get(0).replace("`", ""), row);
		}
		assertThat(rows.keySet()).as("catalogue rows of docs/findings.md")
			.containsExactlyInAnyOrderElementsOf(FindingCatalogue.ids());
		assertThat(FindingCatalogue.entries()).allSatisfy((type) -> {
			List<String> row = rows.get(type.id());
			assertThat(row.get(1)).as("severity of %s in the catalogue", type.id()).isEqualTo(type.severity().name());
			assertThat(row.get(2).replace("`", "")).as("meaning of %s in the catalogue", type.id())
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
		// deleted test must not leave the claim pointing at nothing.
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
