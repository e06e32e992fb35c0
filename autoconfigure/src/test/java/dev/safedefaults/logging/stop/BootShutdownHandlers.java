package dev.safedefaults.logging.stop;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.SpringApplication;

/**
 * What Boot's shutdown hook will run, read from its handlers for the tests of either
 * logging system's stop.
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

}
