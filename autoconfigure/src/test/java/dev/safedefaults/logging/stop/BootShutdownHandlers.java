package dev.safedefaults.logging.stop;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.SpringApplication;

/**
 * What Boot's shutdown hook will run, read from its handlers for the tests of either
 * logging system's stop, and the starter's stop put back after a test.
 */
final class BootShutdownHandlers {

	private BootShutdownHandlers() {
	}

	/**
	 * The runnables of Boot's shutdown handlers.
	 * @return them, in Boot's order
	 * @throws ReflectiveOperationException when Boot's handlers change shape
	 */
	static List<Runnable> runnables() throws ReflectiveOperationException {
		Object handlers = SpringApplication.getShutdownHandlers();
		Method getActions = handlers.getClass().getDeclaredMethod("getActions");
		getActions.setAccessible(true);
		List<Runnable> runnables = new ArrayList<>();
		for (Object handler : (Iterable<?>) getActions.invoke(handlers)) {
			Method runnable = handler.getClass().getDeclaredMethod("runnable");
			runnable.setAccessible(true);
			runnables.add((Runnable) runnable.invoke(handler));
		}
		return runnables;
	}

	/**
	 * Puts back the starter's stop that was registered before a test, taking the test's
	 * own out of Boot's handlers; leaves them alone when the test registered none.
	 * @param before the stop registered before the test, {@code null} when none was
	 */
	static void restore(@Nullable BoundedLoggingStop before) {
		BoundedLoggingStop registered = StopRegistration.current();
		if (registered == before) {
			return;
		}
		if (before != null) {
			// Registering the earlier stop again takes this test's out of Boot's
			// handlers.
			StopRegistration.register(before);
		}
		else if (registered != null) {
			SpringApplication.getShutdownHandlers().remove(registered);
		}
	}

}
