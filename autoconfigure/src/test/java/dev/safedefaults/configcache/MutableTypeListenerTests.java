package dev.safedefaults.configcache;

import java.util.List;
import java.util.Map;

import dev.safedefaults.check.FindingCatalogue;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.check.Severity;
import org.junit.jupiter.api.Test;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

class MutableTypeListenerTests {

	private final FindingsStore store = new FindingsStore(List.of());

	private final MutableTypeListener findings = new MutableTypeListener(this.store);

	@Test
	void theIdIsInTheCatalogueAsInfo() {
		assertThat(FindingCatalogue.find(ConfigCacheFindings.MUTABLE_TYPE.id()))
			.hasValueSatisfying((entry) -> assertThat(entry.severity()).isEqualTo(Severity.INFO));
	}

	@Test
	void aRecordOfValuesIsNotReported() {
		assertThat(MutableTypeListener.mutableParts(Immutable.class)).isEmpty();
		this.findings.accept(Immutable.class);
		assertThat(this.store.findings()).isEmpty();
	}

	@Test
	void aClassWithFinalFieldsAndGettersIsNotReported() {
		assertThat(MutableTypeListener.mutableParts(FinalFields.class)).isEmpty();
	}

	@Test
	void settersAreReported() {
		assertThat(MutableTypeListener.mutableParts(Bean.class)).containsExactly("setter Bean.setName");
	}

	@Test
	void publicNonFinalFieldsAreReported() {
		assertThat(MutableTypeListener.mutableParts(PublicField.class))
			.containsExactly("public field PublicField.size");
	}

	@Test
	void aMutableClassHeldByARecordIsReported() {
		assertThat(MutableTypeListener.mutableParts(Holder.class)).containsExactly("setter Bean.setName");
	}

	@Test
	void aListTargetIsReportedAsAMutableCollection() {
		assertThat(MutableTypeListener.mutableParts(new TypeReference<List<Immutable>>() {
		}.getType())).containsExactly("a List, which Jackson fills as a mutable collection");
	}

	@Test
	void aListOfMutableElementsReportsBoth() {
		assertThat(MutableTypeListener.mutableParts(new TypeReference<List<Bean>>() {
		}.getType())).containsExactly("a List, which Jackson fills as a mutable collection", "setter Bean.setName");
	}

	@Test
	void mapsArraysAndTreesAreReported() {
		assertThat(MutableTypeListener.mutableParts(new TypeReference<Map<String, Immutable>>() {
		}.getType())).containsExactly("a Map, which Jackson fills as a mutable map");
		assertThat(MutableTypeListener.mutableParts(Immutable[].class)).containsExactly("an array");
		assertThat(MutableTypeListener.mutableParts(JsonNode.class))
			.containsExactly("a Jackson tree, whose object and array nodes are mutable");
	}

	@Test
	void aSelfReferencingTypeIsWalkedOnce() {
		assertThat(MutableTypeListener.mutableParts(Node.class)).containsExactly("setter Node.setNext");
	}

	@Test
	void aMutableTypeIsPublishedAsAnInfoNamingTheTypeAndWhatIsMutable() {
		this.findings.accept(Bean.class);
		assertThat(this.store.findings()).singleElement().satisfies((finding) -> {
			assertThat(finding.id()).isEqualTo("config-cache.mutable-type");
			assertThat(finding.severity()).isEqualTo(Severity.INFO);
			assertThat(finding.subject()).isEqualTo(Bean.class.getTypeName());
			assertThat(finding.message()).contains("setter Bean.setName", "every caller");
			assertThat(finding.fix()).contains("record", "copy the value");
		});
	}

	@Test
	void everyMutableTypeStaysReported() {
		this.findings.accept(Bean.class);
		this.findings.accept(PublicField.class);
		this.findings.accept(Immutable.class);
		this.findings.accept(Bean.class);
		assertThat(this.store.findings()).extracting((finding) -> finding.subject())
			.containsExactlyInAnyOrder(Bean.class.getTypeName(), PublicField.class.getTypeName());
	}

	@Test
	void aSilencedIdIsNotReported() {
		FindingsStore silencing = new FindingsStore(List.of(ConfigCacheFindings.MUTABLE_TYPE.id()));
		new MutableTypeListener(silencing).accept(Bean.class);
		assertThat(silencing.findings()).isEmpty();
	}

	@Test
	void aLongListOfPartsIsShortened() {
		this.findings.accept(ManySetters.class);
		assertThat(this.store.findings()).singleElement()
			.satisfies((finding) -> assertThat(finding.message()).contains("and 2 more"));
	}

	record Immutable(String name, int size, List<String> tags) {
	}

	static final class FinalFields {

		private final String name;

		FinalFields(String name) {
			this.name = name;
		}

		public String getName() {
			return this.name;
		}

	}

	static class Bean {

		private String name;

		public String getName() {
			return this.name;
		}

		public void setName(String name) {
			this.name = name;
		}

	}

	static class PublicField {

		public int size;

		public final int limit = 1;

		public static int shared;

	}

	record Holder(Immutable immutable, Bean bean) {
	}

	static class Node {

		private Node next;

		public void setNext(Node next) {
			this.next = next;
		}

	}

	static class ManySetters {

		public void setA(int a) {
		}

		public void setB(int b) {
		}

		public void setC(int c) {
		}

		public void setD(int d) {
		}

		public void setE(int e) {
		}

		public void setF(int f) {
		}

		public void setG(int g) {
		}

	}

}
