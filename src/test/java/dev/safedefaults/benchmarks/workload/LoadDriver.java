package dev.safedefaults.benchmarks.workload;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongFunction;

/**
 * A closed-loop HTTP load: a fixed number of client threads, each sending the next
 * request as soon as the previous one is answered, for a fixed time. Bounded in count and
 * time, on loopback only.
 */
final class LoadDriver {

	/**
	 * What a run measured.
	 *
	 * @param requests requests answered
	 * @param byStatus answers per HTTP status (-1: no answer, a timeout or an I/O error)
	 * @param seconds how long it ran
	 * @param latenciesNanos every answered request's latency, sorted
	 */
	record Result(long requests, java.util.Map<Integer, Long> byStatus, double seconds, long[] latenciesNanos) {

		double perSecond() {
			return this.requests / this.seconds;
		}

		long percentileMicros(double p) {
			if (this.latenciesNanos.length == 0) {
				return -1;
			}
			return this.latenciesNanos[(int) Math.min(this.latenciesNanos.length - 1,
					Math.floor(p * this.latenciesNanos.length))] / 1000;
		}

		long answered(int status) {
			return this.byStatus.getOrDefault(status, 0L);
		}

	}

	private final HttpClient client = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.executor(Executors.newFixedThreadPool(4, (runnable) -> {
			Thread thread = new Thread(runnable, "load-http");
			thread.setDaemon(true);
			return thread;
		}))
		.build();

	/**
	 * Runs the load.
	 * @param baseUrl the app
	 * @param threads client threads
	 * @param duration how long
	 * @param maxRequests a bound on the total
	 * @return what it measured
	 */
	Result run(String baseUrl, int threads, Duration duration, long maxRequests) throws InterruptedException {
		return run(baseUrl, threads, duration, maxRequests, (i) -> "/api/orders/" + (1 + (i % 3)));
	}

	/**
	 * Runs the load with chosen paths.
	 * @param baseUrl the app
	 * @param threads client threads
	 * @param duration how long
	 * @param maxRequests a bound on the total
	 * @param pathOf the path of a thread's i-th request (each thread starts at its index)
	 * @return what it measured
	 */
	Result run(String baseUrl, int threads, Duration duration, long maxRequests, LongFunction<String> pathOf)
			throws InterruptedException {
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		ConcurrentHashMap<Integer, LongAdder> statuses = new ConcurrentHashMap<>();
		LongAdder total = new LongAdder();
		long start = System.nanoTime();
		long deadline = start + duration.toNanos();
		List<Future<long[]>> futures = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			int thread = t;
			futures.add(pool.submit(() -> {
				long[] latencies = new long[1024];
				int count = 0;
				long i = thread;
				while (System.nanoTime() < deadline && total.sum() < maxRequests) {
					total.increment();
					HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + pathOf.apply(i++)))
						.timeout(Duration.ofSeconds(10))
						.build();
					long sent = System.nanoTime();
					int status;
					try {
						status = this.client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
					}
					catch (IOException ex) {
						status = -1;
					}
					long took = System.nanoTime() - sent;
					statuses.computeIfAbsent(status, (s) -> new LongAdder()).increment();
					if (status > 0) {
						if (count == latencies.length) {
							latencies = Arrays.copyOf(latencies, count * 2);
						}
						latencies[count++] = took;
					}
				}
				return Arrays.copyOf(latencies, count);
			}));
		}
		pool.shutdown();
		pool.awaitTermination(duration.toSeconds() + 60, TimeUnit.SECONDS);
		double seconds = (System.nanoTime() - start) / 1e9;
		List<long[]> all = new ArrayList<>();
		for (Future<long[]> future : futures) {
			try {
				all.add(future.get(1, TimeUnit.SECONDS));
			}
			catch (Exception ex) {
				all.add(new long[0]);
			}
		}
		long[] latencies = all.stream().flatMapToLong(Arrays::stream).sorted().toArray();
		java.util.Map<Integer, Long> byStatus = new java.util.TreeMap<>();
		statuses.forEach((status, count) -> byStatus.put(status, count.sum()));
		long answered = byStatus.entrySet()
			.stream()
			.filter((e) -> e.getKey() > 0)
			.mapToLong(java.util.Map.Entry::getValue)
			.sum();
		return new Result(answered, byStatus, seconds, latencies);
	}

}
