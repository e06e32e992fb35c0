package dev.safedefaults.httpclient.timeouts;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.web.client.RestClientException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A call to a downstream that never answers, timed: it must give up because of the
 * expected timeout, not before it and not much after it (the slack covers a loaded
 * machine, far below any other timeout in play). The call runs on another thread and is
 * waited for with a bound, so a client without a timeout fails the test instead of
 * hanging it.
 */
final class TimedCall {

	/** How late after its timeout a call may give up on a loaded machine. */
	static final Duration SLACK = Duration.ofMillis(2500);

	private TimedCall() {
	}

	/**
	 * Asserts that the call gives up with a {@link RestClientException} no sooner than
	 * the timeout and at most {@link #SLACK} after it.
	 * @param timeout the timeout that should end the call
	 * @param call the call
	 * @return the exception the call ended with
	 * @throws Exception when waiting fails
	 */
	static RestClientException assertGivesUpAfter(Duration timeout, Supplier<@Nullable String> call) throws Exception {
		return assertGivesUpAfter(timeout, call, RestClientException.class);
	}

	/**
	 * Asserts that the call gives up with the given exception no sooner than the timeout
	 * and at most {@link #SLACK} after it.
	 * @param <E> the exception's type
	 * @param timeout the timeout that should end the call
	 * @param call the call
	 * @param type the exception the client ends the call with
	 * @return the exception the call ended with
	 * @throws Exception when waiting fails
	 */
	static <E extends Exception> E assertGivesUpAfter(Duration timeout, Supplier<@Nullable String> call, Class<E> type)
			throws Exception {
		long start = System.nanoTime();
		CompletableFuture<Long> ended = new CompletableFuture<>();
		CompletableFuture<@Nullable String> result = CompletableFuture.supplyAsync(call)
			.whenComplete((body, failure) -> ended.complete(System.nanoTime()));
		ExecutionException failure = assertThatExceptionOfType(ExecutionException.class)
			.isThrownBy(() -> result.get(timeout.plus(SLACK).toMillis(), TimeUnit.MILLISECONDS))
			.actual();
		Duration elapsed = Duration.ofNanos(ended.get(1, TimeUnit.SECONDS) - start);
		assertThat(failure.getCause()).isInstanceOf(type);
		assertThat(elapsed).as("gave up after").isBetween(timeout, timeout.plus(SLACK));
		return type.cast(failure.getCause());
	}

}
