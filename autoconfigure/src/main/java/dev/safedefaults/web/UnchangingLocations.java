package dev.safedefaults.web;

import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.util.ClassUtils;
import org.springframework.web.context.support.ServletContextResource;

/**
 * Tells which resource locations cannot change while the application runs: class-path
 * locations whose class loader reads only archives (a packaged jar, the nested jars of a
 * Spring Boot fat jar). Such a location that does not hold a path now never will, so the
 * miss may be remembered.
 * <p>
 * The same holds for a servlet-context location (Boot adds {@code /} to the {@code /**}
 * handler) in a packaged application whose document root holds nothing: the embedded
 * server then serves it from the {@code META-INF/resources} of the class path's jars and
 * from its own empty temporary directory. Boot uses a {@code src/main/webapp},
 * {@code public} or {@code static} directory of the working directory as the document
 * root when there is one; its content can change, so such a root keeps the location
 * asked.
 * <p>
 * Everything else may change and is asked every time: a class-path location when any root
 * of the class path is a directory (an IDE, {@code spring-boot:run}, DevTools' restart
 * class loader, an exploded jar: a file copied there is served at once), a
 * servlet-context location there or with a document root that holds a file, and every
 * file-system or URL location.
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
		if (location instanceof ServletContextResource servletContextLocation) {
			return isUnchanging(servletContextLocation);
		}
		if (!(location instanceof ClassPathResource classPathLocation)) {
			return false;
		}
		ClassLoader classLoader = classPathLocation.getClassLoader();
		return classLoader != null && readsOnlyArchivesOnce(classLoader)
				&& allArchives(classLoader, classPathLocation.getPath());
	}

	private boolean isUnchanging(ServletContextResource location) {
		ClassLoader classLoader = ClassUtils.getDefaultClassLoader();
		if (classLoader == null || !readsOnlyArchivesOnce(classLoader)) {
			return false;
		}
		String realPath = location.getServletContext().getRealPath(location.getPath());
		return realPath == null || isEmptyDirectory(Path.of(realPath));
	}

	/** {@link #readsOnlyArchives}, asked once per class loader. */
	private boolean readsOnlyArchivesOnce(ClassLoader classLoader) {
		return this.archivesOnly.computeIfAbsent(classLoader, UnchangingLocations::readsOnlyArchives);
	}

	private static boolean isEmptyDirectory(Path directory) {
		if (!Files.isDirectory(directory)) {
			return false;
		}
		try (Stream<Path> entries = Files.list(directory)) {
			return entries.findAny().isEmpty();
		}
		catch (IOException ex) {
			return false;
		}
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
