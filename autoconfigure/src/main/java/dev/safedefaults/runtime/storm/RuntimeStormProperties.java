package dev.safedefaults.runtime.storm;

import java.time.Duration;

import dev.safedefaults.PropertyBounds;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The runtime storm detector: exception storms seen through the JDK's flight recorder,
 * and stack traces printed to {@code System.err}. Both report findings while they last.
 */
@ConfigurationProperties("safe-defaults.runtime")
public class RuntimeStormProperties implements InitializingBean {

	/**
	 * Whether to watch the running JVM for exception storms (through the JDK's flight
	 * recorder) and for stack traces printed to System.err, with their findings and
	 * metric. Off by default: on a healthy service it costs CPU on every request (the JIT
	 * compiles more and later while an in-process recording stream runs; see
	 * docs/cost.md), so it is for the times a storm is suspected.
	 */
	private boolean enabled;

	/**
	 * The shortest sampling period: the recorder's events are not meant to be read
	 * faster.
	 */
	static final Duration MIN_SAMPLING_PERIOD = Duration.ofMillis(10);

	/** The highest rate threshold accepted. */
	static final double MAX_RATE = 1e9;

	/**
	 * How often the JVM's count of created throwables is read (the flight recorder's
	 * jdk.ExceptionStatistics event). At 1s it costs next to nothing. From 10ms to 1m.
	 */
	private Duration samplingPeriod = Duration.ofSeconds(1);

	/**
	 * How long a rate must stay above its threshold before it is reported as a storm, and
	 * below it before the storm is over. From 1ms to 1h.
	 */
	private Duration sustainedFor = Duration.ofSeconds(5);

	private final ExceptionStorm exceptionStorm = new ExceptionStorm();

	private final StderrStackTraces stderrStackTraces = new StderrStackTraces();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public Duration getSamplingPeriod() {
		return this.samplingPeriod;
	}

	public void setSamplingPeriod(Duration samplingPeriod) {
		this.samplingPeriod = samplingPeriod;
	}

	public Duration getSustainedFor() {
		return this.sustainedFor;
	}

	public void setSustainedFor(Duration sustainedFor) {
		this.sustainedFor = sustainedFor;
	}

	public ExceptionStorm getExceptionStorm() {
		return this.exceptionStorm;
	}

	public StderrStackTraces getStderrStackTraces() {
		return this.stderrStackTraces;
	}

	@Override
	public void afterPropertiesSet() {
		PropertyBounds.requireRange("safe-defaults.runtime.sampling-period", this.samplingPeriod, MIN_SAMPLING_PERIOD,
				Duration.ofMinutes(1), "such as 1s");
		PropertyBounds.requireRange("safe-defaults.runtime.sustained-for", this.sustainedFor, Duration.ofMillis(1),
				Duration.ofHours(1), "such as 5s");
		PropertyBounds.requireRange("safe-defaults.runtime.exception-storm.window-interval",
				this.exceptionStorm.getWindowInterval(), Duration.ofMillis(1), PropertyBounds.MAX_INTERVAL,
				"such as 10m");
		PropertyBounds.requireRange("safe-defaults.runtime.exception-storm.per-second",
				this.exceptionStorm.getPerSecond(), 0, true, MAX_RATE, "throwables a second");
		PropertyBounds.requireRange("safe-defaults.runtime.exception-storm.per-request",
				this.exceptionStorm.getPerRequest(), 0, true, MAX_RATE, "throwables per request");
		PropertyBounds.requireRange("safe-defaults.runtime.stderr-stack-traces.per-second",
				this.stderrStackTraces.getPerSecond(), 0, true, MAX_RATE, "stack traces a second");
		PropertyBounds.requireRange("safe-defaults.runtime.stderr-stack-traces.log-interval",
				this.stderrStackTraces.getLogInterval(), Duration.ofMillis(1), PropertyBounds.MAX_INTERVAL,
				"such as 10m");
	}

	/**
	 * When the JVM creating throwables is a storm (incidents 1, 3 and 8).
	 */
	public static class ExceptionStorm {

		/**
		 * Throwables created per second above which the JVM is in an exception storm.
		 * Positive. A service at rest or under normal load creates next to none; each one
		 * fills in a stack trace (~2 us at 100 frames deep), and the failing lookup or
		 * parse that throws it usually costs more.
		 */
		private double perSecond = 1000;

		/**
		 * Throwables per completed HTTP server request (Micrometer's
		 * http.server.requests) above which the JVM is in an exception storm, even at low
		 * traffic. Applies while the service completes at least one request a second.
		 * Positive. A healthy request creates next to none (about one when its client
		 * closes the connection: Tomcat's EOFException); one whose downstream call fails
		 * about five more.
		 */
		private double perRequest = 5;

		/**
		 * The least time between two diagnostic windows (a recording of at most one
		 * second of throws with their stack traces, which slows throwing code while it
		 * lasts), and between two logged starts of an exception storm. From 1ms to 1d.
		 */
		private Duration windowInterval = Duration.ofMinutes(10);

		public double getPerSecond() {
			return this.perSecond;
		}

		public void setPerSecond(double perSecond) {
			this.perSecond = perSecond;
		}

		public double getPerRequest() {
			return this.perRequest;
		}

		public void setPerRequest(double perRequest) {
			this.perRequest = perRequest;
		}

		public Duration getWindowInterval() {
			return this.windowInterval;
		}

		public void setWindowInterval(Duration windowInterval) {
			this.windowInterval = windowInterval;
		}

	}

	/**
	 * Stack traces printed to System.err (incident 8: printStackTrace holds the
	 * System.err lock for every line).
	 */
	public static class StderrStackTraces {

		/**
		 * Whether to count the stack traces written to System.err, through a pass-through
		 * wrapper that changes nothing written and takes no lock of its own. The original
		 * System.err is restored when the application context closes.
		 */
		private boolean enabled = true;

		/**
		 * Stack traces printed to System.err per second above which a storm is reported.
		 * Positive.
		 */
		private double perSecond = 10;

		/**
		 * The least time between two logged starts of a System.err stack-trace storm (the
		 * finding is there all the while). From 1ms to 1d.
		 */
		private Duration logInterval = Duration.ofMinutes(10);

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public double getPerSecond() {
			return this.perSecond;
		}

		public void setPerSecond(double perSecond) {
			this.perSecond = perSecond;
		}

		public Duration getLogInterval() {
			return this.logInterval;
		}

		public void setLogInterval(Duration logInterval) {
			this.logInterval = logInterval;
		}

	}

}
