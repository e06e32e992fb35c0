package dev.safedefaults.benchmarks.workload;

import java.util.List;

/**
 * The ways the reference workload runs: the same packaged sample app, chosen by profile,
 * properties and JVM-level switches (Log4j's selector and queue-full policy are fixed
 * when Log4j starts).
 */
enum WorkloadMode {

	/** The starter on, the app written plainly. */
	STARTER("starter", List.of(), List.of()),

	/**
	 * The incidents reproduced in the app's code and configuration, the starter off: the
	 * "before".
	 */
	NAIVE("naive", List.of("-Dsafe-defaults.enabled=false"), List.of("--spring.profiles.active=naive")),

	/** The best hand-written setup, without the starter: the ceiling. */
	TUNED("tuned", List.of("-Dsafe-defaults.enabled=false", "-Dlog4j2.asyncQueueFullPolicy=Discard"),
			List.of("--spring.profiles.active=tuned")),

	/** The plainly written app with the starter off. */
	PLAIN("plain", List.of("-Dsafe-defaults.enabled=false"), List.of());

	final String label;

	final List<String> jvmArgs;

	final List<String> appArgs;

	WorkloadMode(String label, List<String> jvmArgs, List<String> appArgs) {
		this.label = label;
		this.jvmArgs = jvmArgs;
		this.appArgs = appArgs;
	}

	/**
	 * The command line that starts this mode.
	 * @return the command line, for the README and the report
	 */
	String commandLine() {
		return "java " + String.join(" ", this.jvmArgs) + (this.jvmArgs.isEmpty() ? "" : " ")
				+ "-jar sample-app/target/safe-defaults-sample-app-*-exec.jar"
				+ (this.appArgs.isEmpty() ? "" : " " + String.join(" ", this.appArgs));
	}

}
