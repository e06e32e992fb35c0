package dev.safedefaults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A markdown file of the repository as {@link DocumentationTests} reads it: the values of
 * a table's first column under a heading, the anchors its headings get on GitHub, and the
 * relative links it makes. Fenced code blocks are left out of all three.
 */
final class MarkdownDocument {

	private static final Pattern HEADING = Pattern.compile("^(#{1,6})\\s+(.+?)\\s*#*\\s*$");

	private static final Pattern CODE_SPAN = Pattern.compile("`([^`]+)`");

	private static final Pattern INLINE_LINK = Pattern.compile("\\[[^\\]]*]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");

	private final Path file;

	private final List<String> lines;

	private MarkdownDocument(Path file, List<String> lines) {
		this.file = file;
		this.lines = lines;
	}

	static MarkdownDocument read(Path file) {
		try {
			return new MarkdownDocument(file, withoutCodeBlocks(Files.readAllLines(file)));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	Path file() {
		return this.file;
	}

	/**
	 * The code spans of the first column of the first table under the heading with this
	 * text, header row excluded: {@code | `a`, `b` | … |} gives {@code a} and {@code b}.
	 * @param heading the heading's text, without its {@code #}s
	 * @return the values, in order; empty when there is no such heading or table
	 */
	Set<String> firstColumnUnder(String heading) {
		Set<String> values = new LinkedHashSet<>();
		for (List<String> row : rowsUnder(heading)) {
			values.addAll(codeSpans(row.get(0)));
		}
		return values;
	}

	/**
	 * The code spans of a cell: {@code `a`, `b`} gives {@code a} and {@code b}.
	 * @param cell a table cell's text
	 * @return the spans' text, in order
	 */
	static List<String> codeSpans(String cell) {
		List<String> spans = new ArrayList<>();
		Matcher span = CODE_SPAN.matcher(cell);
		while (span.find()) {
			spans.add(span.group(1));
		}
		return spans;
	}

	/**
	 * The rows of the first table under the heading with this text, header and separator
	 * rows excluded, each as its cells' text (stripped; {@code \|} is a pipe inside a
	 * cell).
	 * @param heading the heading's text, without its {@code #}s
	 * @return the rows, in order; empty when there is no such heading or table
	 */
	List<List<String>> rowsUnder(String heading) {
		List<List<String>> rows = new ArrayList<>();
		int index = headingIndex(heading);
		if (index < 0) {
			return rows;
		}
		boolean inTable = false;
		for (int i = index + 1; i < this.lines.size(); i++) {
			String line = this.lines.get(i).strip();
			if (HEADING.matcher(line).matches() || (inTable && !line.startsWith("|"))) {
				break;
			}
			if (!line.startsWith("|")) {
				continue;
			}
			if (inTable && !line.matches("^\\|[\\s:|-]+\\|$")) {
				rows.add(cells(line));
			}
			inTable = true;
		}
		return rows;
	}

	/**
	 * The anchors GitHub gives this document's headings: lower case, punctuation removed,
	 * each space a hyphen, a repeated anchor suffixed {@code -1}, {@code -2}…
	 * @return the anchors
	 */
	Set<String> anchors() {
		Set<String> anchors = new LinkedHashSet<>();
		Map<String, Integer> seen = new HashMap<>();
		for (String line : this.lines) {
			Matcher heading = HEADING.matcher(line);
			if (heading.matches()) {
				String slug = heading.group(2)
					.toLowerCase(Locale.ROOT)
					.replaceAll("[^\\p{L}\\p{N}\\s_-]", "")
					.strip()
					.replace(' ', '-');
				int count = seen.merge(slug, 1, Integer::sum);
				anchors.add((count == 1) ? slug : slug + "-" + (count - 1));
			}
		}
		return anchors;
	}

	/**
	 * Every link target that is neither absolute ({@code scheme:}) nor in a code span or
	 * block, as written: a path relative to this document, a {@code #anchor} or both.
	 * @return the targets
	 */
	List<String> relativeLinks() {
		List<String> links = new ArrayList<>();
		for (String line : this.lines) {
			Matcher link = INLINE_LINK.matcher(CODE_SPAN.matcher(line).replaceAll(""));
			while (link.find()) {
				String target = link.group(1);
				if (!target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
					links.add(target);
				}
			}
		}
		return links;
	}

	private int headingIndex(String heading) {
		for (int i = 0; i < this.lines.size(); i++) {
			Matcher matcher = HEADING.matcher(this.lines.get(i));
			if (matcher.matches() && matcher.group(2).equals(heading)) {
				return i;
			}
		}
		return -1;
	}

	private static List<String> cells(String row) {
		String[] cells = row.substring(1, row.length() - (row.endsWith("|") ? 1 : 0)).split("(?<!\\\\)\\|", -1);
		List<String> stripped = new ArrayList<>();
		for (String cell : cells) {
			stripped.add(cell.strip());
		}
		return stripped;
	}

	private static List<String> withoutCodeBlocks(List<String> lines) {
		List<String> kept = new ArrayList<>();
		boolean inBlock = false;
		for (String line : lines) {
			if (line.strip().startsWith("```")) {
				inBlock = !inBlock;
			}
			else if (!inBlock) {
				kept.add(line);
			}
		}
		return kept;
	}

}
