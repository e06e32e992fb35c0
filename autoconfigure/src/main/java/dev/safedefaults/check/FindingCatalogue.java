package dev.safedefaults.check;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.core.io.support.SpringFactoriesLoader;

/**
 * Every finding id safe-defaults can raise, whether or not the feature that raises it is
 * active in this application: the union of the {@link FindingDeclarations} that the
 * features list in {@code META-INF/spring.factories}. Ids are public API:
 * {@code safe-defaults.checks.disabled} is validated against this list, and the catalogue
 * of docs/findings.md documents each one (a test compares them).
 */
public final class FindingCatalogue {

	private static volatile @Nullable Map<String, FindingType> byId;

	private FindingCatalogue() {
	}

	private static Map<String, FindingType> byId() {
		Map<String, FindingType> types = byId;
		if (types == null) {
			types = load(FindingCatalogue.class.getClassLoader());
			byId = types;
		}
		return types;
	}

	static Map<String, FindingType> load(ClassLoader classLoader) {
		Map<String, FindingType> types = new LinkedHashMap<>();
		for (FindingDeclarations declarations : SpringFactoriesLoader.forDefaultResourceLocation(classLoader)
			.load(FindingDeclarations.class)) {
			for (FindingType type : declarations.findingTypes()) {
				if (types.put(type.id(), type) != null) {
					throw new IllegalStateException("Finding id " + type.id() + " is declared twice (again in "
							+ declarations.getClass().getName() + ")");
				}
			}
		}
		return Collections.unmodifiableMap(types);
	}

	/**
	 * Returns every declared finding type, in declaration order.
	 * @return the types
	 */
	public static List<FindingType> entries() {
		return List.copyOf(byId().values());
	}

	/**
	 * Returns every declared id.
	 * @return the ids
	 */
	public static Set<String> ids() {
		return byId().keySet();
	}

	/**
	 * Looks up an id.
	 * @param id the id
	 * @return its declaration, or empty when the id is unknown
	 */
	public static Optional<FindingType> find(String id) {
		return Optional.ofNullable(byId().get(id));
	}

}
