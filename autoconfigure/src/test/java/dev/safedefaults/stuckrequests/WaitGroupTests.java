package dev.safedefaults.stuckrequests;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import dev.safedefaults.check.Finding;
import dev.safedefaults.stuckrequests.JdbcPools.PoolState;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pool wait's finding says whose requests probably hold the pool's connections (when
 * they are at least as many as the connections in use; else that they may hold some),
 * each wait as the subject of its own finding, and says nothing of holders when no other
 * request is past the threshold.
 */
class WaitGroupTests {

	private static final Duration THRESHOLD = Duration.ofSeconds(2);

	private static final String POOL_STATE = "HikariPool-1: 2 of 2 connections in use, 3 threads waiting for one";

	private static final PoolState TWO_IN_USE = new PoolState(POOL_STATE, 2);

	private final WaitGroup pool = new WaitGroup(
			new Wait(WaitKind.POOL_CONNECTION, "HikariPool-1", "com.example.NoteController.read:33"), 3,
			Set.of("GET /notes/{id}"));

	private final WaitGroup http = new WaitGroup(new Wait(WaitKind.HTTP_RESPONSE,
			"127.0.0.1:8081 (JDK HttpClient via RestClient)", "com.example.NoteController.priced:44"), 2,
			Set.of("GET /notes/{id}/priced"));

	private final WaitGroup sleep = new WaitGroup(new Wait(WaitKind.SLEEP, "Thread.sleep", "com.example.Batch.run:12"),
			1, Set.of());

	@Test
	void aPoolWaitSaysItsConnectionsAreProbablyHeldByTheOtherRequestsWhenTheyAreEnoughToHoldThemAll() {
		List<WaitGroup> all = List.of(this.pool, this.http, this.sleep);
		Finding finding = this.pool.finding(all, THRESHOLD, TWO_IN_USE);
		assertThat(finding.subject()).isEqualTo("pool connection: HikariPool-1");
		assertThat(finding.message()).startsWith("3 requests running longer than 2s wait for a connection from "
				+ "HikariPool-1, at com.example.NoteController.read:33 (GET /notes/{id}); " + POOL_STATE
				+ "; its connections are probably held by the other requests past the threshold, which wait: "
				+ "2 on HTTP response: 127.0.0.1:8081 (JDK HttpClient via RestClient), 1 on sleep: Thread.sleep. ");
		Finding holders = this.http.finding(all, THRESHOLD, TWO_IN_USE);
		assertThat(finding.message()).as("each wait named as its own finding's subject").contains(holders.subject());
		assertThat(holders.message()).doesNotContain("held by").doesNotContain(POOL_STATE);
	}

	@Test
	void fewerOtherRequestsThanConnectionsInUseMayHoldSomeOfThemOnly() {
		Finding finding = this.pool.finding(List.of(this.pool, this.sleep), THRESHOLD,
				new PoolState("HikariPool-1: 10 of 10 connections in use, 3 threads waiting for one", 10));
		assertThat(finding.message()).doesNotContain("probably")
			.contains("; the other requests past the threshold, which may hold some of its connections, wait: "
					+ "1 on sleep: Thread.sleep. ");
		assertThat(this.pool.finding(List.of(this.pool, this.http), THRESHOLD, PoolState.NONE).message())
			.as("the connections in use unknown")
			.doesNotContain("probably")
			.contains("which may hold some of its connections, wait: 2 on HTTP response");
	}

	@Test
	void aPoolWaitAloneNamesNoHolders() {
		Finding finding = this.pool.finding(List.of(this.pool), THRESHOLD, TWO_IN_USE);
		assertThat(finding.message()).contains(POOL_STATE).doesNotContain("held by").doesNotContain("may hold");
	}

}
