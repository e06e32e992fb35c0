package dev.safedefaults.web;

import java.io.IOException;
import java.net.URL;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.Map;

import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;

/**
 * Tells which resource locations cannot change while the application runs: class-path
 * locations whose class loader reads only archives (a packaged jar, the nested jars of a
 * Spring Boot fat jar). Such a location that does not hold a path now never will, so the
 * miss may be remembered.
 * <p>
 * Everything else may change and is asked every time: a class-path location when any root
 * of the class path is a directory (an IDE, {@code spring-boot:run}, DevTools' restart
 * class loader, an exploded jar: a file copied there is served at once), and every
 * file-system, URL or servlet-context location (the embedded server's document root is a
 * directory).
 */
class UnchangingLocations {

	private static final String ARCHIVE_PROTOCOL = "jar";

	private final Map<ClassLoader, Boolean> archivesOnly = new HashMap<>();

	/**
	 * Whether this location's content is fixed for the life of the application.
	 * @param location a resource handler's location
	 * @return {@code true} when a path it lacks now it lacks for ever
	 */
	boolean isUnchanging(Resource location) {
		if (!(location instanceof ClassPathResource classPathLocation)) {
			return false;
		}
		ClassLoader classLoader = classPathLocation.getClassLoader();
		if (classLoader == null) {
			return false;
		}
		return this.archivesOnly.computeIfAbsent(classLoader, UnchangingLocations::readsOnlyArchives)
				&& allArchives(classLoader, classPathLocation.getPath());
	}

	/**
	 * Whether no root of this class loader's class path (its parents' included) is a
	 * directory: {@code getResources("")} names every directory root, never a jar.
	 */
	private static boolean readsOnlyArchives(ClassLoader classLoader) {
		return allArchives(classLoader, "");
	}

	private static boolean allArchives(ClassLoader classLoader, String name) {
		try {
			Enumeration<URL> urls = classLoader.getResources(name);
			while (urls.hasMoreElements()) {
				if (!ARCHIVE_PROTOCOL.equals(urls.nextElement().getProtocol())) {
					return false;
				}
			}
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

}
