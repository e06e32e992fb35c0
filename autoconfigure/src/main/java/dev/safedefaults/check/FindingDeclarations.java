package dev.safedefaults.check;

import java.util.List;

/**
 * The findings one feature can raise, whether or not the feature is active in this
 * application. Each feature package has one implementation (for example
 * {@code JdbcFindings}), listed in {@code META-INF/spring.factories} under this
 * interface's name; the {@link FindingCatalogue} is the union of them all, so
 * {@code check} knows no feature and {@code safe-defaults.checks.disabled} is still
 * validated against every id. An implementation must not touch the feature's optional
 * libraries: it is loaded even where they are absent.
 */
public interface FindingDeclarations {

	/**
	 * The feature's finding types, one per id (not their variants), in catalogue order.
	 * @return the types
	 */
	List<FindingType> findingTypes();

}
