package dev.safedefaults.benchmarks.restclient;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Incident 1 in Spring's own client API. One GET reading a small JSON response through a
 * {@code RestClient}, with each setup of {@link RestClientSetups}. The starter should
 * match the hand-written singleton and beat the per-call build by an order of magnitude.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(2)
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 4, time = 2)
public class RestClientDecodeBenchmark {

	@Benchmark
	public Object perCallBuild(RestClientSetups setups) {
		return RestClientSetups.decode(RestClientSetups.build(setups.upstreamBuilders));
	}

	@Benchmark
	public Object perCallBuildStarter(RestClientSetups setups) {
		return RestClientSetups.decode(RestClientSetups.build(setups.starterBuilders));
	}

	@Benchmark
	public Object starter(RestClientSetups setups) {
		return RestClientSetups.decode(setups.starter);
	}

	@Benchmark
	public Object upstreamDefaults(RestClientSetups setups) {
		return RestClientSetups.decode(setups.upstreamDefaults);
	}

	@Benchmark
	public Object handWritten(RestClientSetups setups) {
		return RestClientSetups.decode(setups.handWritten);
	}

}
