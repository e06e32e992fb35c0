package dev.safedefaults.benchmarks.runtime;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.runtime.storm.RuntimeStormAutoConfiguration;
import dev.safedefaults.runtime.storm.RuntimeStormDetector;
import jdk.jfr.Recording;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.MapPropertySource;

/**
 * What the runtime storm detector costs the code it watches (issue 8). One application
 * context with the starter's root and runtime auto-configurations, and the detector:
 * <ul>
 * <li>{@code off}: {@code safe-defaults.runtime.enabled=false};</li>
 * <li>{@code on}: its standing cost, {@code jdk.ExceptionStatistics} every second and the
 * {@code System.err} wrapper, with the exception threshold out of reach: the throwing
 * benchmarks are storms themselves, and a diagnostic window would otherwise fall inside
 * the measurement;</li>
 * <li>{@code window}: on, with a diagnostic window held open for the whole run (throw
 * events with stack traces): the cost while a window lasts, at most one second per window
 * interval (ten minutes).</li>
 * </ul>
 * Workloads:
 * <ul>
 * <li>{@code nonThrowing}: parses 16 numbers, all valid;</li>
 * <li>{@code throwing}: parses 16 numbers, one of them invalid and caught: one throwable
 * per operation, from a shallow stack, so the detector's constant cost per throwable
 * weighs as much as it ever can (incident 3's control-flow exceptions);</li>
 * <li>{@code throwingDeep}: the same 100 frames deeper, as in a web request.</li>
 * </ul>
 * Run alternating, one fork per mode and round, by {@link RuntimeDetectorBenchmarkMain}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class RuntimeDetectorBenchmark {

	@Param({ "off", "on", "window" })
	public String detector;

	private final String[] valid = new String[16];

	private final String[] oneInvalid = new String[16];

	private ConfigurableApplicationContext context;

	private Recording window;

	@Setup(Level.Trial)
	public void start() {
		for (int i = 0; i < 16; i++) {
			this.valid[i] = Integer.toString(1_000_003 * (i + 1));
			this.oneInvalid[i] = (i == 7) ? "12x45" : this.valid[i];
		}
		// A plain context, not SpringApplication: the sample app's initializers (an
		// embedded
		// database) are on this class path too.
		AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
		context.getEnvironment()
			.getPropertySources()
			.addFirst(new MapPropertySource("benchmark",
					Map.of("safe-defaults.runtime.enabled", String.valueOf(!"off".equals(this.detector)),
							"safe-defaults.runtime.exception-storm.per-second", "1e12",
							"safe-defaults.runtime.exception-storm.per-request", "1e12")));
		context.register(DetectorConfiguration.class);
		context.refresh();
		this.context = context;
		boolean running = this.context.getBeanProvider(RuntimeStormDetector.class)
			.stream()
			.anyMatch(RuntimeStormDetector::isRunning);
		if (running == "off".equals(this.detector)) {
			throw new IllegalStateException("The detector should be " + this.detector);
		}
		if ("window".equals(this.detector)) {
			this.window = new Recording();
			this.window.enable("jdk.JavaErrorThrow").withStackTrace();
			this.window.enable("jdk.JavaExceptionThrow").withStackTrace();
			this.window.setMaxSize(64L * 1024 * 1024);
			this.window.start();
		}
	}

	@TearDown(Level.Trial)
	public void stop() {
		if (this.window != null) {
			this.window.close();
		}
		this.context.close();
	}

	@Benchmark
	public long nonThrowing() {
		return parseAll(this.valid);
	}

	@Benchmark
	public long throwing() {
		return parseAll(this.oneInvalid);
	}

	@Benchmark
	public long throwingDeep() {
		return deeper(100, this.oneInvalid);
	}

	private static long deeper(int frames, String[] numbers) {
		return (frames == 0) ? parseAll(numbers) : deeper(frames - 1, numbers) + 1;
	}

	private static long parseAll(String[] numbers) {
		long sum = 0;
		for (String number : numbers) {
			try {
				sum += Long.parseLong(number);
			}
			catch (NumberFormatException ex) {
				sum--;
			}
		}
		return sum;
	}

	/** Only the starter's root and runtime auto-configurations. */
	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ SafeDefaultsAutoConfiguration.class, RuntimeStormAutoConfiguration.class })
	static class DetectorConfiguration {

	}

}
