package dev.safedefaults.support;

import java.util.Optional;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The application's first frame, as every feature that names a caller finds it from the
 * one table: a frame of any row is not the application's, by its
 * {@link StackTraceElement} or by its class and method names alike (a {@link StackWalker}
 * frame's); Spring's CGLIB proxies of the application's beans and the starter's own
 * frames are not the application's; a class of the application is.
 */
class LibraryFramesTests {

	@Test
	void aFrameOfEveryRowIsNotTheApplicationsByItsElementOrItsNames() {
		for (LibraryFrames.Row row : LibraryFrames.ROWS) {
			String method = row.methods().isEmpty() ? "any" : row.methods().iterator().next();
			StackTraceElement frame = new StackTraceElement(row.prefix() + "Some", method, null, 1);
			assertThat(LibraryFrames.of(frame)).as(row.prefix()).isEqualTo(row);
			assertThat(LibraryFrames.isApplications(frame)).as(row.prefix()).isFalse();
			assertThat(LibraryFrames.isApplications(frame.getClassName(), method)).as(row.prefix()).isFalse();
		}
	}

	@Test
	void theApplicationsClassIsItsOwnAndItsCglibAndJdkProxiesAreNot() {
		assertThat(LibraryFrames.isApplications("com.example.orders.OrderService", "load")).isTrue();
		assertThat(LibraryFrames.of(new StackTraceElement("com.example.orders.OrderService", "load", null, 1)))
			.isNull();
		assertThat(LibraryFrames.isApplications("com.example.orders.OrderService$$SpringCGLIB$$0", "load")).isFalse();
		assertThat(LibraryFrames.isApplications("com.example.orders.$Proxy68", "touch"))
			.as("the JDK's proxy of a package-private interface, in its package")
			.isFalse();
	}

	@Test
	void aMethodOutsideANarrowRowFallsToTheBroadRowOfItsLibrary() {
		StackTraceElement poolWait = new StackTraceElement("com.zaxxer.hikari.pool.HikariPool", "getConnection", null,
				1);
		StackTraceElement poolOther = new StackTraceElement("com.zaxxer.hikari.pool.HikariPool", "softEvictConnections",
				null, 1);
		assertThat(LibraryFrames.of(poolWait)).extracting(LibraryFrames.Row::meaning)
			.isEqualTo(LibraryFrames.Meaning.JDBC_POOL);
		assertThat(LibraryFrames.of(poolOther)).extracting(LibraryFrames.Row::meaning)
			.isEqualTo(LibraryFrames.Meaning.LIBRARY);
	}

	@Test
	void theFirstApplicationFrameOfThisThreadIsThisTest() {
		Optional<String> first = StackWalker.getInstance()
			.walk((frames) -> frames
				.filter((frame) -> LibraryFrames.isApplications(frame.getClassName(), frame.getMethodName()))
				.findFirst()
				.map((frame) -> frame.getClassName() + "." + frame.getMethodName()));
		assertThat(first)
			.contains(LibraryFramesTests.class.getName() + ".theFirstApplicationFrameOfThisThreadIsThisTest");
	}

}
