package dev.safedefaults.system.logging;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.safedefaults.logging.log4j2.CountingQueueFullPolicy;
import dev.safedefaults.testsupport.OnEveryJdk;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps the Disruptor pin and the {@code logging.disruptor-4} check honest: a saturated
 * all-async run with the starter's own settings (its selector, its queue-full policy, the
 * smallest ring) writes every WARN event with the 3.4.4 the starter ships; the same run
 * with Disruptor 4.0.0, where the starter sets no selector and Log4j's blocking policy is
 * asked for, loses WARN events uncounted, and the check says so. The worker runs in its
 * own JVM, bounded: its output goes to a file, and a worker that hangs is killed and
 * fails the test. Covers {@code DisruptorVersion}: 3.4.4 and 4.0.0 told apart from the
 * class path alone, no finding with the one, {@code logging.disruptor-4} with the other.
 */
@OnEveryJdk
class DisruptorVersionIT {

	private static final Pattern RESULT = Pattern
		.compile("RESULT context=(\\w+) policy=(\\S+) logged=(\\d+) written=(\\d+) findings=\\[(.*)]");

	private static final Duration WORKER_BOUND = Duration.ofMinutes(3);

	@Test
	void disruptor3WritesEveryWarning() throws Exception {
		Matcher result = run(false);
		assertThat(result.group(1)).isEqualTo("AsyncLoggerContext");
		assertThat(result.group(2)).isEqualTo(CountingQueueFullPolicy.class.getName());
		assertThat(result.group(4)).isEqualTo(result.group(3));
		assertThat(result.group(5)).doesNotContain("logging.disruptor-4");
	}

	@Test
	void disruptor4LosesWarningsUncountedAndTheCheckSaysSo() throws Exception {
		Matcher result = run(true);
		assertThat(result.group(1)).isEqualTo("AsyncLoggerContext");
		assertThat(Long.parseLong(result.group(4))).isLessThan(Long.parseLong(result.group(3)));
		assertThat(result.group(5)).contains("logging.disruptor-4");
	}

	private Matcher run(boolean disruptor4) throws IOException, InterruptedException {
		String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
		List<String> entries = new ArrayList<>(Arrays.asList(classPath.split(File.pathSeparator)));
		List<String> command = new ArrayList<>(
				List.of(ProcessHandle.current().info().command().orElse("java"), "-Xmx256m",
						// The smallest ring: saturated within the run.
						"-Dlog4j2.asyncLoggerRingBufferSize=128"));
		if (disruptor4) {
			String jar = System.getProperty("disruptor4.jar");
			assertThat(new File(jar)).as("Disruptor 4 jar copied by the build").isFile();
			entries.replaceAll((entry) -> entry.contains("disruptor-3.") ? jar : entry);
			assertThat(entries).contains(jar);
			// The starter sets no selector with Disruptor 4: ask for what it would lose.
			command.addAll(
					List.of("-Dlog4j2.contextSelector=org.apache.logging.log4j.core.async.AsyncLoggerContextSelector",
							"-Dlog4j2.asyncQueueFullPolicy=Default"));
		}
		command.addAll(List.of("-cp", String.join(File.pathSeparator, entries), DisruptorLossWorker.class.getName()));
		Path output = Files.createTempFile("disruptor-worker", ".log");
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(output.toFile())
				.start();
			boolean ended = process.waitFor(WORKER_BOUND.toSeconds(), TimeUnit.SECONDS);
			if (!ended) {
				process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			}
			String text = Files.readString(output, StandardCharsets.UTF_8);
			assertThat(ended).as("worker ended within %s; output:%n%s", WORKER_BOUND, text).isTrue();
			Matcher matcher = RESULT.matcher(text);
			assertThat(matcher.find()).as("worker output:%n%s", text).isTrue();
			System.out.println((disruptor4 ? "Disruptor 4.0.0: " : "Disruptor 3.4.4: ") + matcher.group());
			return matcher;
		}
		finally {
			Files.deleteIfExists(output);
		}
	}

}
