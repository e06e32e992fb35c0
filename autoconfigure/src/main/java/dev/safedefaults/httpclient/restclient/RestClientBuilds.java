package dev.safedefaults.httpclient.restclient;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListMap;

import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.httpclient.PerRequestBuilds;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;

/**
 * Counts the clients made from Boot's {@code RestClient.Builder} once the application is
 * ready ({@link PerRequestBuilds}: every builder handed out and every client built, the
 * first few callers named; at 20, then every tenfold, the
 * {@code restclient.per-request-build} finding is published with the counts), and what
 * each HTTP service group's converters turned out to be at startup.
 */
final class RestClientBuilds implements ApplicationListener<ApplicationReadyEvent> {

	static final long FIRST_REPORT = PerRequestBuilds.FIRST_REPORT;

	static final String SOURCE = "restclient.per-request-build";

	private final PerRequestBuilds builds;

	private final Map<String, GroupConverters> groups = new ConcurrentSkipListMap<>();

	RestClientBuilds(ObjectProvider<FindingsStore> store) {
		this.builds = new PerRequestBuilds(Set.of(RestClientBuilds.class, SharedConvertersRestClientCustomizer.class),
				(handedOut, built, callers) -> report(store, handedOut, built, callers));
	}

	@Override
	public void onApplicationEvent(ApplicationReadyEvent event) {
		this.builds.ready();
	}

	/**
	 * Called for every builder Boot hands out (and every group's builder).
	 */
	void builderHandedOut() {
		this.builds.builderHandedOut();
	}

	/**
	 * Called for every client built from a builder that carries the shared set.
	 */
	void clientBuilt() {
		this.builds.clientBuilt();
	}

	/**
	 * Records what a group's client got, when it is built (at startup).
	 * @param group what its converters were
	 */
	void groupBuilt(GroupConverters group) {
		this.groups.put(group.name(), group);
	}

	/**
	 * The groups recorded so far, by name.
	 * @return the groups
	 */
	List<GroupConverters> groups() {
		return List.copyOf(this.groups.values());
	}

	/**
	 * Builders handed out since the application was ready.
	 * @return the count
	 */
	long handedOutAfterReady() {
		return this.builds.handedOutAfterReady();
	}

	/**
	 * Clients built since the application was ready.
	 * @return the count
	 */
	long builtAfterReady() {
		return this.builds.builtAfterReady();
	}

	private static void report(ObjectProvider<FindingsStore> store, long handedOut, long built, String callers) {
		FindingsStore findings = store.getIfAvailable();
		if (findings == null) {
			return;
		}
		Finding finding = RestClientFindings.PER_REQUEST_BUILD.raise("Boot's RestClient.Builder", handedOut, built,
				callers);
		findings.publish(SOURCE, List.of(finding));
	}

	/**
	 * What one HTTP service group's client got.
	 *
	 * @param name the group's name
	 * @param exchangesObjects whether one of its interfaces sends or receives objects
	 * (not only strings, bytes or nothing)
	 * @param json whether its converters read and write JSON
	 * @param shared whether it carries the starter's shared set
	 * @param defaults the default-only converters it carries (resources, XML, other
	 * formats), by simple name
	 */
	record GroupConverters(String name, boolean exchangesObjects, boolean json, boolean shared, List<String> defaults) {
	}

}
