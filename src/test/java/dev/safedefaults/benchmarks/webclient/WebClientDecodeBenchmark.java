package dev.safedefaults.benchmarks.webclient;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Issue 52, incident 1 in Spring's reactive client. One GET reading a small JSON response
 * through a {@code WebClient}, with each setup of {@link WebClientSetups}: a client built
 * per call (Boot's builder makes its codecs on each build, spring-framework #27325)
 * against one built once, with and without the starter. The starter should cost nothing
 * on a client built once, and its count should add little to the per-call build it names.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 3, time = 2)
public class WebClientDecodeBenchmark {

	@Benchmark
	public Object perCallBuild(WebClientSetups setups) {
		return WebClientSetups.decode(WebClientSetups.build(setups.upstreamBuilders));
	}

	@Benchmark
	public Object perCallBuildStarter(WebClientSetups setups) {
		return WebClientSetups.decode(WebClientSetups.build(setups.starterBuilders));
	}

	@Benchmark
	public Object builtOnce(WebClientSetups setups) {
		return WebClientSetups.decode(setups.builtOnce);
	}

	@Benchmark
	public Object starter(WebClientSetups setups) {
		return WebClientSetups.decode(setups.starter);
	}

}
