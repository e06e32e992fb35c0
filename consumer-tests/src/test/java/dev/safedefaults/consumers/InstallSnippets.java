package dev.safedefaults.consumers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The code blocks of a Markdown file, and the named ones: a block is named by an HTML
 * comment {@code <!-- snippet: NAME -->} on the line before its opening fence (in a pom,
 * the snippet lies between {@code <!-- snippet: NAME -->} and
 * {@code <!-- end snippet -->}).
 */
final class InstallSnippets {

	private static final Pattern NAMED_BLOCK = Pattern.compile("<!-- snippet: ([\\w-]+) -->\\R```(\\w+)\\R(.*?)\\R```",
			Pattern.DOTALL);

	private static final Pattern BLOCK = Pattern.compile("^```(\\w+)\\R(.*?)\\R```",
			Pattern.DOTALL | Pattern.MULTILINE);

	private static final Pattern POM_SNIPPET = Pattern
		.compile("<!-- snippet: ([\\w-]+) -->\\R(.*?)\\R\\s*<!-- end snippet -->", Pattern.DOTALL);

	private InstallSnippets() {
	}

	/**
	 * The named code blocks of a Markdown file.
	 * @param markdown the file
	 * @return name to block (language and text)
	 */
	static Map<String, Block> named(Path markdown) {
		Map<String, Block> blocks = new LinkedHashMap<>();
		Matcher matcher = NAMED_BLOCK.matcher(read(markdown));
		while (matcher.find()) {
			Block previous = blocks.put(matcher.group(1), new Block(matcher.group(2), matcher.group(3)));
			if (previous != null) {
				throw new IllegalStateException("Two snippets named " + matcher.group(1) + " in " + markdown);
			}
		}
		return blocks;
	}

	/**
	 * Every code block of a Markdown file in one language.
	 * @param markdown the file
	 * @param language e.g. {@code xml}
	 * @return the blocks' texts
	 */
	static List<String> blocks(Path markdown, String language) {
		List<String> blocks = new ArrayList<>();
		Matcher matcher = BLOCK.matcher(read(markdown));
		while (matcher.find()) {
			if (matcher.group(1).equals(language)) {
				blocks.add(matcher.group(2));
			}
		}
		return blocks;
	}

	/**
	 * The marked snippets of a consumer pom, in order.
	 * @param pom the pom
	 * @return each snippet's name and text
	 */
	static List<Map.Entry<String, String>> inPom(Path pom) {
		List<Map.Entry<String, String>> snippets = new ArrayList<>();
		Matcher matcher = POM_SNIPPET.matcher(read(pom));
		while (matcher.find()) {
			snippets.add(Map.entry(matcher.group(1), matcher.group(2)));
		}
		return snippets;
	}

	/**
	 * The text with each line's indentation and trailing blanks removed, and blank lines
	 * dropped: a snippet indented one level deeper in a pom is the same snippet.
	 * @param text the text
	 * @return the normalized text
	 */
	static String normalize(String text) {
		return text.lines()
			.map(String::strip)
			.filter((line) -> !line.isEmpty())
			.reduce((a, b) -> a + "\n" + b)
			.orElse("");
	}

	private static String read(Path file) {
		try {
			return Files.readString(file);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * A fenced code block.
	 *
	 * @param language its language
	 * @param text its text
	 */
	record Block(String language, String text) {
	}

}
