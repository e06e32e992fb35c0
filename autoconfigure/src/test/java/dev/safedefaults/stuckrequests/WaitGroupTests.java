package dev.safedefaults.stuckrequests;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import dev.safedefaults.check.Finding;
import dev.safedefaults.stuckrequests.JdbcPools.PoolState;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code WaitGroup.of}: requests with the same wait from the same code are one group, the
 * same wait from two sites two groups whose subjects differ, the largest five groups
 * only, and up to three distinct endpoints, counted after the duplicates are removed.
 * {@code WaitGroup.finding}: the subject names what the grouping uses; the message's
 * verbs agree with the count; a group on virtual threads is told the thread dump that
 * lists them; a pool wait's finding says whose requests probably hold the pool's
 * connections (when they are at least as many as the connections in use; else that they
 * may hold some), each wait as the subject of its own finding, and says nothing of
 * holders when no other request is past the threshold.
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
		assertThat(finding.subject()).isEqualTo("pool connection: HikariPool-1 at com.example.NoteController.read:33");
		assertThat(finding.message()).startsWith("3 requests running longer than 2s wait for a connection from "
				+ "HikariPool-1, at com.example.NoteController.read:33 (GET /notes/{id}); " + POOL_STATE
				+ "; its connections are probably held by the other requests past the threshold, which wait: "
				+ "2 on HTTP response: 127.0.0.1:8081 (JDK HttpClient via RestClient) at "
				+ "com.example.NoteController.priced:44, 1 on sleep: Thread.sleep at com.example.Batch.run:12. ");
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
					+ "1 on sleep: Thread.sleep at com.example.Batch.run:12. ");
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

	@Test
	void requestsWithTheSameWaitFromTheSameCodeAreOneGroupAndTheLargestFiveAreKept() {
		List<InFlightRequest> requests = new ArrayList<>();
		for (int site = 0; site < 7; site++) {
			for (int i = 0; i <= site; i++) {
				requests.add(examined(new Wait(WaitKind.SLEEP, "Thread.sleep", "com.example.Site" + site + ".run:1"),
						"GET", "/site/" + site));
			}
		}
		List<WaitGroup> groups = WaitGroup.of(requests);
		assertThat(groups).hasSize(WaitGroup.TOP_WAITS)
			.extracting(WaitGroup::count)
			.as("the largest first")
			.containsExactly(7, 6, 5, 4, 3);
		assertThat(groups.get(0).waitingOn().site()).isEqualTo("com.example.Site6.run:1");
		assertThat(groups.get(0).endpoints()).containsExactly("GET /site/6");
	}

	@Test
	void theSameWaitFromTwoSitesIsTwoGroupsWhoseSubjectsDiffer() {
		Wait fromOrders = new Wait(WaitKind.HTTP_RESPONSE, "users:8080 (JDK HttpClient via RestClient)",
				"com.example.Orders.load:10");
		Wait fromInvoices = new Wait(WaitKind.HTTP_RESPONSE, "users:8080 (JDK HttpClient via RestClient)",
				"com.example.Invoices.load:20");
		List<WaitGroup> groups = WaitGroup.of(List.of(examined(fromOrders, "GET", "/orders/{id}"),
				examined(fromInvoices, "GET", "/invoices/{id}"), examined(fromOrders, "GET", "/orders/{id}")));
		assertThat(groups).extracting(WaitGroup::count).containsExactly(2, 1);
		List<String> subjects = groups.stream()
			.map((group) -> group.finding(groups, THRESHOLD, PoolState.NONE).subject())
			.toList();
		assertThat(subjects).doesNotHaveDuplicates()
			.containsExactly("HTTP response: users:8080 (JDK HttpClient via RestClient) at com.example.Orders.load:10",
					"HTTP response: users:8080 (JDK HttpClient via RestClient) at com.example.Invoices.load:20");
	}

	@Test
	void theEndpointLimitCountsDistinctEndpoints() {
		Wait wait = new Wait(WaitKind.SLEEP, "Thread.sleep", "com.example.Batch.run:12");
		List<InFlightRequest> requests = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			requests.add(examined(wait, "GET", "/a/{id}"));
		}
		requests.add(examined(wait, "GET", "/b/{id}"));
		requests.add(examined(wait, "POST", "/c"));
		requests.add(examined(wait, "PUT", "/d"));
		requests.add(examined(wait, null, null));
		WaitGroup group = WaitGroup.of(requests).get(0);
		assertThat(group.count()).isEqualTo(8);
		assertThat(group.endpoints()).as("three distinct ones, though the first four requests share one")
			.hasSize(WaitGroup.MAX_ENDPOINTS)
			.containsExactly("GET /a/{id}", "GET /b/{id}", "POST /c");
	}

	@Test
	void theMessageAgreesWithTheCount() {
		WaitGroup one = new WaitGroup(new Wait(WaitKind.OTHER, "runnable", "com.example.Report.render:40"), 1,
				Set.of());
		Finding finding = one.finding(List.of(one), THRESHOLD, PoolState.NONE);
		assertThat(finding.message())
			.startsWith("1 request running longer than 2s is runnable, at com.example.Report.render:40");
		assertThat(finding.fix()).as("a long computation may be legitimate")
			.contains("which may be legitimate")
			.contains("safe-defaults.stuck-requests.threshold");
		WaitGroup two = new WaitGroup(this.sleep.waitingOn(), 2, Set.of());
		assertThat(two.finding(List.of(two), THRESHOLD, PoolState.NONE).message())
			.startsWith("2 requests running longer than 2s wait in a sleep: Thread.sleep");
		assertThat(this.sleep.finding(List.of(this.sleep), THRESHOLD, PoolState.NONE).message())
			.startsWith("1 request running longer than 2s waits in a sleep: Thread.sleep");
	}

	@Test
	void theThreadDumpNamedIsOneThatShowsTheGroupsThreads() {
		Wait lock = new Wait(WaitKind.LOCK, "java.util.concurrent.locks.ReentrantLock$NonfairSync",
				"com.example.Cache.get:7");
		WaitGroup platform = new WaitGroup(lock, 1, Set.of(), false);
		assertThat(platform.finding(List.of(platform), THRESHOLD, PoolState.NONE).fix())
			.contains("jcmd <pid> Thread.print")
			.doesNotContain("dump_to_file");
		WaitGroup virtual = new WaitGroup(lock, 1, Set.of(), true);
		assertThat(virtual.finding(List.of(virtual), THRESHOLD, PoolState.NONE).fix())
			.contains("jcmd <pid> Thread.dump_to_file -format=json <file>")
			.contains("virtual threads, which jcmd <pid> Thread.print does not list");
		WaitGroup other = new WaitGroup(new Wait(WaitKind.OTHER, "waiting", "com.example.Cache.get:7"), 1, Set.of(),
				true);
		assertThat(other.finding(List.of(other), THRESHOLD, PoolState.NONE).fix())
			.contains("jcmd <pid> Thread.dump_to_file -format=json <file>");
	}

	private static InFlightRequest examined(Wait wait, String method, String pattern) {
		InFlightRequest request = new InFlightRequest(Thread.currentThread(), System.nanoTime(), method);
		if (pattern != null) {
			request.handlerChosen(pattern);
		}
		request.examined(wait);
		return request;
	}

}
