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
 * Incident 1. Decodes a small JSON response through {@code SpringDecoder}, as every Feign
 * call does, with each converters setup of {@link FeignCodecs}. The starter should match
 * the hand-written singleton and beat the per-call variants by an order of magnitude.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(2)
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 4, time = 2)
public class FeignDecodeBenchmark {

	@Benchmark
	public Object perCallConverters(FeignCodecs codecs) throws Exception {
		return codecs.decode(codecs.perCallConvertersDecoder);
	}

	@Benchmark
	public Object perCallStandalone(FeignCodecs codecs) throws Exception {
		return codecs.decode(codecs.perCallStandaloneDecoder);
	}

	@Benchmark
	public Object starter(FeignCodecs codecs) throws Exception {
		return codecs.decode(codecs.starterDecoder);
	}

	@Benchmark
	public Object upstreamDefaults(FeignCodecs codecs) throws Exception {
		return codecs.decode(codecs.upstreamDefaultsDecoder);
	}

	@Benchmark
	public Object handWritten(FeignCodecs codecs) throws Exception {
		return codecs.decode(codecs.handWrittenDecoder);
	}

	@Benchmark
	public Object applicationCodec(FeignCodecs codecs) throws Exception {
		return codecs.decode(codecs.applicationDecoder);
	}

	@Benchmark
	public Object applicationCodecWatched(FeignCodecs codecs) throws Exception {
		return codecs.decode(codecs.applicationDecoderWatched);
	}

}
