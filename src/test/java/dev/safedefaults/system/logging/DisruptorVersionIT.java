package dev.safedefaults.system.logging;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import dev.safedefaults.testsupport.OnEveryJdk;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps the Disruptor pin and the {@code logging.disruptor-4} check honest: the same
 * saturated all-async run, with Log4j's blocking policy, loses WARN events with Disruptor
 * 4.0.0 and none with the 3.4.4 the starter ships.
 */
@OnEveryJdk
class DisruptorVersionIT {

	private static final Pattern RESULT = Pattern
		.compile("RESULT context=(\\w+) logged=(\\d+) written=(\\d+) findings=\\[(.*)]");

	@Test
	void disruptor3WritesEveryWarning() throws Exception {
		Matcher result = run(false);
		assertThat(result.group(1)).isEqualTo("AsyncLoggerContext");
		assertThat(result.group(3)).isEqualTo(result.group(2));
		assertThat(result.group(4)).doesNotContain("logging.disruptor-4");
	}

	@Test
	void disruptor4LosesWarningsUncountedAndTheCheckSaysSo() throws Exception {
		Matcher result = run(true);
		assertThat(result.group(1)).isEqualTo("AsyncLoggerContext");
		assertThat(Long.parseLong(result.group(3))).isLessThan(Long.parseLong(result.group(2)));
		assertThat(result.group(4)).contains("logging.disruptor-4");
	}

	private Matcher run(boolean disruptor4) throws IOException, InterruptedException {
		String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
		List<String> entries = new ArrayList<>(Arrays.asList(classPath.split(File.pathSeparator)));
		if (disruptor4) {
			String jar = System.getProperty("disruptor4.jar");
			assertThat(new File(jar)).as("Disruptor 4 jar copied by the build").isFile();
			entries.replaceAll((entry) -> entry.contains("disruptor-3.") ? jar : entry);
			assertThat(entries).contains(jar);
		}
		List<String> command = List.of(ProcessHandle.current().info().command().orElse("java"), "-Xmx256m",
				"-Dlog4j2.contextSelector=org.apache.logging.log4j.core.async.AsyncLoggerContextSelector",
				"-Dlog4j2.asyncQueueFullPolicy=Default", "-Dlog4j2.asyncLoggerRingBufferSize=128", "-cp",
				String.join(File.pathSeparator, entries), DisruptorLossWorker.class.getName());
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(process.waitFor(3, TimeUnit.MINUTES)).isTrue();
		Matcher matcher = RESULT.matcher(output);
		assertThat(matcher.find()).as("worker output:%n%s", output).isTrue();
		System.out.println((disruptor4 ? "Disruptor 4.0.0: " : "Disruptor 3.4.4: ") + matcher.group());
		return matcher;
	}

}
