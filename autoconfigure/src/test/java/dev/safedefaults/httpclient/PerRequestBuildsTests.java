package dev.safedefaults.httpclient;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link PerRequestBuilds}: nothing is counted before the application is ready; the first
 * report comes at 20, the next at 200, with the counts and the caller named past the
 * counting feature's own frames.
 */
class PerRequestBuildsTests {

	private final List<String> reports = new ArrayList<>();

	private final PerRequestBuilds builds = new PerRequestBuilds(Set.of(CountingCustomizer.class),
			(handedOut, built, callers) -> this.reports.add(handedOut + "/" + built + " " + callers));

	@Test
	void buildsDuringStartupAreNotCounted() {
		for (int i = 0; i < 100; i++) {
			new CountingCustomizer(this.builds).customizeAndBuild();
		}
		assertThat(this.builds.handedOutAfterReady()).isZero();
		assertThat(this.builds.builtAfterReady()).isZero();
		assertThat(this.reports).isEmpty();
	}

	@Test
	void theFirstReportComesAtTwentyAndNamesTheCallerPastTheFeaturesOwnFrames() {
		this.builds.ready();
		for (int i = 0; i < PerRequestBuilds.FIRST_REPORT - 1; i++) {
			handler();
		}
		assertThat(this.reports).isEmpty();
		handler();
		assertThat(this.reports).singleElement()
			.asString()
			.startsWith("20/19 {" + PerRequestBuildsTests.class.getName() + ".handler:");
	}

	@Test
	void theNextReportComesTenfoldLaterWhicheverCountReachesIt() {
		this.builds.ready();
		for (int i = 0; i < 10 * PerRequestBuilds.FIRST_REPORT; i++) {
			handler();
		}
		assertThat(this.reports).hasSize(2);
		assertThat(this.reports.get(1)).startsWith("200/199 ");
	}

	private void handler() {
		new CountingCustomizer(this.builds).customizeAndBuild();
	}

	/**
	 * Stands for a feature's counting customizer: its frames are not the caller.
	 */
	static final class CountingCustomizer {

		private final PerRequestBuilds builds;

		CountingCustomizer(PerRequestBuilds builds) {
			this.builds = builds;
		}

		void customizeAndBuild() {
			this.builds.builderHandedOut();
			this.builds.clientBuilt();
		}

	}

}
