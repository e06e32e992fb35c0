package dev.safedefaults.check;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;

/**
 * Runs every {@link Check} bean once, after every singleton exists and before the web
 * server takes traffic (its phase is lower than the web server's), so an
 * {@code ApplicationContextRunner} refresh runs them too. Each check is isolated: one that
 * throws becomes a {@code checks.failed} finding. Deferred checks run on a daemon thread
 * with a timeout and publish when done. Then the findings are logged, and with
 * {@link FailOn#WARNING} a startup warning fails the refresh.
 */
public final class StartupCheckRunner implements SmartLifecycle {

	/**
	 * Started before the web server (Boot starts it at {@code DEFAULT_PHASE - 2048}), so no
	 * request arrives before the checks have run.
	 */
	public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

	private static final Log logger = LogFactory.getLog(StartupCheckRunner.class);

	private final FindingsStore store;

	private final ObjectProvider<Check> checks;

	private final FailOn failOn;

	private final Duration deferredTimeout;

	private volatile boolean running;

	private volatile ExecutorService deferredExecutor;

	private volatile Duration startupDuration = Duration.ZERO;

	private volatile int startupCheckCount;

	private volatile Map<String, Double> startupMillisByCheck = Map.of();

	/**
	 * Creates a runner.
	 * @param store where findings go
	 * @param checks the checks to run
	 * @param failOn what fails startup
	 * @param deferredTimeout how long a deferred check may take
	 */
	public StartupCheckRunner(FindingsStore store, ObjectProvider<Check> checks, FailOn failOn,
			Duration deferredTimeout) {
		this.store = store;
		this.checks = checks;
		this.failOn = failOn;
		this.deferredTimeout = deferredTimeout;
	}

	@Override
	public void start() {
		this.running = true;
		long started = System.nanoTime();
		List<Finding> startupFindings = new ArrayList<>();
		List<Check> deferred = new ArrayList<>();
		int count = 0;
		Map<String, Double> millisByCheck = new LinkedHashMap<>();
		for (Check check : this.checks.orderedStream().toList()) {
			if (check.deferred()) {
				deferred.add(check);
				continue;
			}
			count++;
			long checkStarted = System.nanoTime();
			startupFindings.addAll(this.store.publish(check.name(), runIsolated(check)));
			millisByCheck.put(check.name(), (System.nanoTime() - checkStarted) / 1_000_000.0);
		}
		this.startupCheckCount = count;
		this.startupMillisByCheck = Collections.unmodifiableMap(millisByCheck);
		this.startupDuration = Duration.ofNanos(System.nanoTime() - started);
		if (logger.isDebugEnabled()) {
			logger.debug("safe-defaults ran " + count + " startup checks in " + this.startupDuration.toMillis() + " ms");
		}
		log("at startup", startupFindings);
		if (this.failOn == FailOn.WARNING
				&& startupFindings.stream().anyMatch((f) -> f.severity() == Severity.WARNING)) {
			throw new StartupFindingsException(startupFindings);
		}
		if (!deferred.isEmpty()) {
			runDeferred(deferred);
		}
	}

	private List<Finding> runIsolated(Check check) {
		try {
			List<Finding> findings = check.run();
			return (findings != null) ? findings : List.of();
		}
		catch (Throwable ex) {
			return List.of(checkFailed(check, ex));
		}
	}

	private static Finding checkFailed(Check check, Throwable ex) {
		String cause = (ex instanceof TimeoutException) ? "did not finish in time"
				: "failed with " + ex.getClass().getName() + ((ex.getMessage() != null) ? ": " + ex.getMessage() : "");
		return Finding.warning(FindingCatalogue.CHECKS_FAILED, check.name(),
				"The check " + cause + "; what it looks for was not checked.",
				"Report it; silence it with safe-defaults.checks.disabled=" + FindingCatalogue.CHECKS_FAILED + ".");
	}

	private void runDeferred(List<Check> deferred) {
		ExecutorService executor = Executors.newSingleThreadExecutor((runnable) -> {
			Thread thread = new Thread(runnable, "safe-defaults-deferred-checks");
			thread.setDaemon(true);
			return thread;
		});
		this.deferredExecutor = executor;
		for (Check check : deferred) {
			CompletableFuture.supplyAsync(() -> runIsolated(check), executor)
				.orTimeout(this.deferredTimeout.toMillis(), TimeUnit.MILLISECONDS)
				.exceptionally((ex) -> List.of(checkFailed(check,
						(ex instanceof CompletionException && ex.getCause() != null) ? ex.getCause() : ex)))
				.thenAccept((findings) -> {
					if (this.running) {
						log("by a deferred check", this.store.publish(check.name(), findings));
					}
				});
		}
	}

	private static void log(String when, List<Finding> findings) {
		if (findings.isEmpty()) {
			return;
		}
		long warnings = findings.stream().filter((f) -> f.severity() == Severity.WARNING).count();
		logger.warn("safe-defaults found " + findings.size() + " finding(s) " + when + " (" + warnings
				+ " warning(s), " + (findings.size() - warnings)
				+ " info); details at /actuator/health/safe-defaults");
		for (Finding finding : findings) {
			if (finding.severity() == Severity.WARNING) {
				logger.warn(finding.toLogLine());
			}
			else {
				logger.info(finding.toLogLine());
			}
		}
	}

	@Override
	public void stop() {
		this.running = false;
		ExecutorService executor = this.deferredExecutor;
		if (executor != null) {
			executor.shutdownNow();
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

	/**
	 * How long the startup (non-deferred) checks took, all together.
	 * @return the duration of the last run
	 */
	public Duration getStartupDuration() {
		return this.startupDuration;
	}

	/**
	 * How long each startup check took, in milliseconds, in the order they ran.
	 * @return the durations by check name
	 */
	public Map<String, Double> getStartupMillisByCheck() {
		return this.startupMillisByCheck;
	}

	/**
	 * How many startup (non-deferred) checks ran.
	 * @return the count
	 */
	public int getStartupCheckCount() {
		return this.startupCheckCount;
	}

}
