package dev.safedefaults.benchmarks.workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Draws the cost-of-defaults table as an SVG: two bar charts side by side, req/s and CPU
 * per request per mode, each bar the mean of the rounds with a line from the lowest to
 * the highest round, and a dashed line at the defaults' mean. Plain SVG, no script, no
 * font files: a browser or GitHub shows it as it is.
 */
final class CostChart {

	private static final int ROW = 30;

	private static final int TOP = 60;

	private static final int LABEL = 120;

	private static final int PANEL = 330;

	private static final int GAP = 40;

	private CostChart() {
	}

	static void write(Path file, List<CostOfDefaultsBenchmark.CostRow> rows, String subtitle) throws IOException {
		int height = TOP + ROW * rows.size() + 40;
		int width = LABEL + 2 * PANEL + GAP + 20;
		StringBuilder svg = new StringBuilder();
		svg.append(String.format(Locale.ROOT,
				"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
						+ "font-family=\"sans-serif\" font-size=\"12\">%n",
				width, height, width, height));
		svg.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
		text(svg, 10, 20, "Cost of the defaults: the sample app per mode (bar: mean; line: lowest to highest round)",
				"bold", "start");
		text(svg, 10, 38, escape(subtitle), "normal", "start");
		for (int i = 0; i < rows.size(); i++) {
			text(svg, LABEL - 8, TOP + ROW * i + 19, escape(rows.get(i).label()), "normal", "end");
		}
		panel(svg, rows, LABEL, "req/s (higher is better)", true, "#4e79a7");
		panel(svg, rows, LABEL + PANEL + GAP, "CPU ms per request (lower is better)", false, "#e15759");
		svg.append("</svg>\n");
		Path parent = file.toAbsolutePath().getParent();
		if (parent != null) {
			Files.createDirectories(parent);
		}
		Files.writeString(file, svg);
	}

	private static void panel(StringBuilder svg, List<CostOfDefaultsBenchmark.CostRow> rows, int left, String title,
			boolean rate, String colour) {
		double top = 0;
		for (CostOfDefaultsBenchmark.CostRow row : rows) {
			top = Math.max(top, CostOfDefaultsBenchmark.max(values(row, rate)));
		}
		double scale = (PANEL - 60) / (top * 1.05);
		text(svg, left, TOP - 8, title, "bold", "start");
		for (int i = 0; i < rows.size(); i++) {
			double[] values = values(rows.get(i), rate);
			double mean = CostOfDefaultsBenchmark.mean(values);
			int y = TOP + ROW * i + 5;
			svg.append(String.format(Locale.ROOT,
					"<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"20\" fill=\"%s\" fill-opacity=\"%s\"/>%n", left, y,
					mean * scale, colour, rows.get(i).label().equals(CostOfDefaultsBenchmark.DEFAULTS) ? "1" : "0.6"));
			double low = left + CostOfDefaultsBenchmark.min(values) * scale;
			double high = left + CostOfDefaultsBenchmark.max(values) * scale;
			svg.append(String.format(Locale.ROOT,
					"<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"black\" stroke-width=\"1.5\"/>%n", low,
					y + 10, high, y + 10));
			text(svg, (int) Math.max(high, left + mean * scale) + 4, y + 14,
					String.format(Locale.ROOT, rate ? "%.0f" : "%.2f", mean), "normal", "start");
		}
		double defaults = CostOfDefaultsBenchmark.mean(values(rows.get(0), rate)) * scale + left;
		svg.append(String.format(Locale.ROOT,
				"<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"black\" stroke-dasharray=\"4 3\"/>%n",
				defaults, TOP, defaults, TOP + ROW * rows.size() + 5));
		svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#888\"/>%n", left,
				TOP, left, TOP + ROW * rows.size() + 5));
	}

	private static double[] values(CostOfDefaultsBenchmark.CostRow row, boolean rate) {
		return rate ? row.perSecond() : row.cpuPerRequest();
	}

	private static void text(StringBuilder svg, int x, int y, String text, String weight, String anchor) {
		svg.append(
				String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-weight=\"%s\" text-anchor=\"%s\">%s</text>%n",
						x, y, weight, anchor, text));
	}

	private static String escape(String text) {
		return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
	}

}
