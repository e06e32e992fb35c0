package dev.safedefaults;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.JsonPath;
import dev.safedefaults.check.FindingCatalogue;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Property names and finding ids are public API: each is documented in the generated
 * configuration metadata (so IDEs complete it) and in the README the day it appears.
 */
class DocumentationTests {

	private static String metadata() throws IOException {
		try (InputStream in = DocumentationTests.class
			.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
			assertThat(in).as("generated configuration metadata").isNotNull();
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
	}

	private static String readme() throws IOException {
		return Files.readString(Path.of("..", "README.md"));
	}

	@Test
	void everyPropertyHasADescriptionForTheIde() throws IOException {
		List<Map<String, Object>> properties = JsonPath.read(metadata(), "$.properties[*]");
		assertThat(properties).isNotEmpty();
		assertThat(properties).allSatisfy((property) -> assertThat(property.get("description"))
			.as("description of %s", property.get("name"))
			.asString()
			.isNotBlank());
	}

	@Test
	void everyPropertyIsInTheReadmesPropertyTable() throws IOException {
		String readme = readme();
		List<String> names = JsonPath.read(metadata(), "$.properties[*].name");
		assertThat(names).allSatisfy((name) -> assertThat(readme).as("README documents %s", name)
			.contains("| `" + name + "`"));
	}

	@Test
	void everyFindingIdIsInTheReadmesCatalogue() throws IOException {
		String readme = readme();
		assertThat(FindingCatalogue.ids()).allSatisfy(
				(id) -> assertThat(readme).as("README catalogue documents %s", id).contains("| `" + id + "`"));
	}

	@Test
	void theIdeCompletesEveryFindingIdForDisabled() throws IOException {
		List<String> hinted = JsonPath.read(metadata(),
				"$.hints[?(@.name == 'safe-defaults.checks.disabled')].values[*].value");
		assertThat(hinted).containsExactlyInAnyOrderElementsOf(FindingCatalogue.ids());
	}

}
