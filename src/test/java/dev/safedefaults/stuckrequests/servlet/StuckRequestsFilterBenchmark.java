package dev.safedefaults.stuckrequests.servlet;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

import dev.safedefaults.stuckrequests.InFlightRequests;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/**
 * Issue 44: what the stuck-request watch adds to every healthy request, the one cost the
 * load run of BENCHMARKS.md cannot resolve below its noise (about ±5%). In one run:
 * <ul>
 * <li>{@code noWatch}: the request's filter chain alone (the best hand-written setup: no
 * watch at all);</li>
 * <li>{@code starterWatch}: the same chain behind the starter's
 * {@link InFlightRequestsFilter} (a map entry put and removed, one
 * {@code nanoTime});</li>
 * <li>{@code stackPerRequest}: the anti-pattern a naive watch falls into, the request
 * thread's stack taken on every request.</li>
 * </ul>
 * Four threads, as request threads run. In this package because the filter is package
 * private (in the watch's servlet route). Run with
 * {@code ./mvnw -B -Pbenchmarks -pl src/test -am verify -DskipTests
 * -Dbenchmark="StuckRequestsFilterBenchmark"}; the ratios against the CPU per request of
 * the cost table are in BENCHMARKS.md.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
@Threads(4)
@Fork(2)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class StuckRequestsFilterBenchmark {

	private final InFlightRequestsFilter filter = new InFlightRequestsFilter(new InFlightRequests());

	@Benchmark
	public void noWatch(Request request, Blackhole blackhole) throws IOException, ServletException {
		request.chain(blackhole).doFilter(request.request, request.response);
	}

	@Benchmark
	public void starterWatch(Request request, Blackhole blackhole) throws IOException, ServletException {
		this.filter.doFilter(request.request, request.response, request.chain(blackhole));
	}

	@Benchmark
	public void stackPerRequest(Request request, Blackhole blackhole) throws IOException, ServletException {
		blackhole.consume(Thread.currentThread().getStackTrace());
		request.chain(blackhole).doFilter(request.request, request.response);
	}

	/** One request thread's request and response, reused as a container reuses them. */
	@State(Scope.Thread)
	public static class Request {

		final MockHttpServletRequest request = new MockHttpServletRequest("GET", "/api/orders/1");

		final MockHttpServletResponse response = new MockHttpServletResponse();

		private Blackhole blackhole;

		private final FilterChain chain = this::handle;

		FilterChain chain(Blackhole blackhole) {
			this.blackhole = blackhole;
			return this.chain;
		}

		private void handle(ServletRequest request, ServletResponse response) {
			this.blackhole.consume(request);
		}

	}

}
