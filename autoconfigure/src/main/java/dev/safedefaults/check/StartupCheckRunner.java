package dev.safedefaults.check;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;

/**
 * Runs every {@link Check} bean once, after every singleton exists and before the web
 * server takes traffic (its phase is lower than the web server's), so an
 * {@code ApplicationContextRunner} refresh runs them too. Each check is isolated: one
 * that throws becomes a {@code checks.failed} finding. Deferred checks run on a daemon
 * thread with a timeout and publish when done. Then the findings are logged, and with
 * {@link FailOn#WARNING} a startup warning fails the refresh.
 * <p>
 * It says that the starter is there: one INFO line after the startup checks (what each
 * feature was applied to, how many checks ran, how many findings) and one when the
 * deferred checks are done. Each check's result is published with the generation taken
 * before it ran ({@link FindingsStore#update}).
 */
public final class StartupCheckRunner implements SmartLifecycle {

	/**
	 * Started before the web server (Boot starts it at {@code DEFAULT_PHASE - 2048}), so
	 * no request arrives before the checks have run.
	 */
	public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

	private static final Log logger = LogFactory.getLog(StartupCheckRunner.class);

	private final FindingsStore store;

	private final ObjectProvider<Check> checks;

	private final ObjectProvider<FeatureStatusReporter> features;

	private final FailOn failOn;

	private final Duration deferredTimeout;

	private volatile boolean running;

	private final BiFunction<Runnable, String, Thread> threads;

	private volatile @Nullable ExecutorService deferredExecutor;

	private volatile Duration startupDuration = Duration.ZERO;

	private volatile int startupCheckCount;

	private volatile Map<String, Double> startupMillisByCheck = Map.of();

	private final Map<String, CheckRun> runs = Collections.synchronizedMap(new LinkedHashMap<>());

	/**
	 * Creates a runner.
	 * @param store where findings go
	 * @param checks the checks to run
	 * @param features the features' status reporters, for the startup line
	 * @param failOn what fails startup
	 * @param deferredTimeout how long a deferred check may take
	 * @param threads makes the thread the deferred checks run on, named
	 * {@code safe-defaults-deferred-checks}
	 */
	public StartupCheckRunner(FindingsStore store, ObjectProvider<Check> checks,
			ObjectProvider<FeatureStatusReporter> features, FailOn failOn, Duration deferredTimeout,
			BiFunction<Runnable, String, Thread> threads) {
		this.threads = threads;
		this.store = store;
		this.checks = checks;
		this.features = features;
		this.failOn = failOn;
		this.deferredTimeout = deferredTimeout;
	}

	@Override
	public void start() {
		this.running = true;
		long started = System.nanoTime();
		List<Finding> startupFindings = new ArrayList<>();
		List<Check> deferred = new ArrayList<>();
		Map<String, Double> millisByCheck = new LinkedHashMap<>();
		for (Check check : this.checks.orderedStream().toList()) {
			if (check.deferred()) {
				deferred.add(check);
				this.runs.put(check.name(), CheckRun.running(check.name()));
				continue;
			}
			long checkStarted = System.nanoTime();
			boolean[] failed = new boolean[1];
			List<Finding> kept = this.store.update(check.name(), () -> {
				List<Finding> findings = runIsolated(check);
				failed[0] = isFailure(findings);
				return findings;
			});
			startupFindings.addAll(kept);
			double millis = (System.nanoTime() - checkStarted) / 1_000_000.0;
			millisByCheck.put(check.name(), millis);
			this.runs.put(check.name(), CheckRun.startup(check.name(), failed[0], kept.size(), millis));
		}
		this.startupCheckCount = millisByCheck.size();
		this.startupMillisByCheck = Collections.unmodifiableMap(millisByCheck);
		this.startupDuration = Duration.ofNanos(System.nanoTime() - started);
		logger.info(startupLine(startupFindings, deferred.size()));
		log("at startup", startupFindings);
		if (this.failOn == FailOn.WARNING
				&& startupFindings.stream().anyMatch((f) -> f.severity() == Severity.WARNING)) {
			throw new StartupFindingsException(startupFindings);
		}
		if (!deferred.isEmpty()) {
			runDeferred(deferred);
		}
	}

	/**
	 * {@code safe-defaults: applied logging, feign(2 clients), jdbc(HikariPool-1), config-cache; 6 checks, 0 findings}.
	 */
	private String startupLine(List<Finding> findings, int deferred) {
		List<String> applied = new ArrayList<>();
		List<String> off = new ArrayList<>();
		this.features.orderedStream().forEach((reporter) -> {
			try {
				FeatureStatus status = reporter.status();
				(status.enabled() ? applied : off).add(status.shortForm());
			}
			catch (RuntimeException | LinkageError ex) {
				off.add(reporter.getClass().getSimpleName() + " (status failed: " + ex.getClass().getSimpleName()
						+ ")");
			}
		});
		StringBuilder line = new StringBuilder("safe-defaults: applied ");
		line.append(applied.isEmpty() ? "nothing" : String.join(", ", applied));
		if (!off.isEmpty()) {
			line.append("; off: ").append(String.join(", ", off));
		}
		line.append("; ")
			.append(this.startupCheckCount)
			.append((this.startupCheckCount == 1) ? " check, " : " checks, ");
		line.append(findings.size()).append((findings.size() == 1) ? " finding" : " findings");
		if (deferred > 0) {
			line.append("; ")
				.append(deferred)
				.append(" deferred check")
				.append((deferred == 1) ? "" : "s")
				.append(" running");
		}
		return line.toString();
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

	private static boolean isFailure(List<Finding> findings) {
		return findings.size() == 1 && findings.get(0).id().equals(CheckFindings.CHECKS_FAILED.id());
	}

	private static Finding checkFailed(Check check, Throwable ex) {
		String cause = (ex instanceof TimeoutException) ? "did not finish in time"
				: "failed with " + ex.getClass().getName() + ((ex.getMessage() != null) ? ": " + ex.getMessage() : "");
		return CheckFindings.CHECKS_FAILED.raise(check.name(), cause);
	}

	private void runDeferred(List<Check> deferred) {
		ExecutorService executor = Executors
			.newSingleThreadExecutor((runnable) -> this.threads.apply(runnable, "safe-defaults-deferred-checks"));
		this.deferredExecutor = executor;
		AtomicInteger remaining = new AtomicInteger(deferred.size());
		Map<String, Integer> publishedByCheck = new ConcurrentHashMap<>();
		for (Check check : deferred) {
			long generation = this.store.nextGeneration();
			long submitted = System.nanoTime();
			CompletableFuture.supplyAsync(() -> runIsolated(check), executor)
				.orTimeout(this.deferredTimeout.toMillis(), TimeUnit.MILLISECONDS)
				.exceptionally((ex) -> List.of(checkFailed(check,
						(ex instanceof CompletionException && ex.getCause() != null) ? ex.getCause() : ex)))
				.thenAccept((findings) -> {
					if (!this.running) {
						return;
					}
					List<Finding> kept = this.store.publish(check.name(), generation, findings);
					double millis = (System.nanoTime() - submitted) / 1_000_000.0;
					this.runs.computeIfPresent(check.name(),
							(name, run) -> run.done(isFailure(findings), kept.size(), millis));
					publishedByCheck.put(check.name(), kept.size());
					log("by a deferred check", kept);
					if (remaining.decrementAndGet() == 0) {
						int total = publishedByCheck.values().stream().mapToInt(Integer::intValue).sum();
						logger.info("safe-defaults: " + deferred.size() + " deferred check"
								+ ((deferred.size() == 1) ? "" : "s") + " done ("
								+ String.join(", ", publishedByCheck.keySet()) + "), " + total
								+ ((total == 1) ? " finding" : " findings"));
					}
				});
		}
	}

	private static void log(String when, List<Finding> findings) {
		if (findings.isEmpty()) {
			return;
		}
		long warnings = findings.stream().filter((f) -> f.severity() == Severity.WARNING).count();
		String summary = "safe-defaults found " + findings.size() + " finding(s) " + when + " (" + warnings
				+ " warning(s), " + (findings.size() - warnings)
				+ " info); details at /actuator/health/safe-defaults; silence one with "
				+ "safe-defaults.checks.disabled=<id>";
		// The summary is as severe as its most severe finding: infos alone are no
		// warning.
		if (warnings > 0) {
			logger.warn(summary);
		}
		else {
			logger.info(summary);
		}
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

	/**
	 * Every check, startup and deferred, with where it is.
	 * @return the runs, in the order the checks were met
	 */
	public List<CheckRun> getRuns() {
		synchronized (this.runs) {
			return List.copyOf(this.runs.values());
		}
	}

}
