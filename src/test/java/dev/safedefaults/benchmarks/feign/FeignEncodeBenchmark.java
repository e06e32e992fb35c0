package dev.safedefaults.benchmarks.feign;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Incident 1. Encodes a request body to JSON through {@code SpringEncoder}, as every
 * Feign call does, with each converters setup of {@link FeignCodecs}. The starter should
 * match the hand-written singleton and beat the per-call variants by an order of
 * magnitude.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(2)
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 4, time = 2)
public class FeignEncodeBenchmark {

	@Benchmark
	public Object perCallConverters(FeignCodecs codecs) {
		return FeignCodecs.encode(codecs.perCallConvertersEncoder);
	}

	@Benchmark
	public Object perCallStandalone(FeignCodecs codecs) {
		return FeignCodecs.encode(codecs.perCallStandaloneEncoder);
	}

	@Benchmark
	public Object starter(FeignCodecs codecs) {
		return FeignCodecs.encode(codecs.starterEncoder);
	}

	@Benchmark
	public Object upstreamDefaults(FeignCodecs codecs) {
		return FeignCodecs.encode(codecs.upstreamDefaultsEncoder);
	}

	@Benchmark
	public Object handWritten(FeignCodecs codecs) {
		return FeignCodecs.encode(codecs.handWrittenEncoder);
	}

}
