package dev.safedefaults.logging.logback;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.AppenderBase;
import ch.qos.logback.core.OutputStreamAppender;
import dev.safedefaults.logging.LogStalls;
import dev.safedefaults.logging.LoggingDefaultsProperties;

import org.springframework.boot.logging.LoggingSystem;

/**
 * Real Logback appenders for the tests: one that records, optionally held until released
 * (a stalled output), and one writing a pattern to memory; and a class loader on which
 * Logback is present but SLF4J is not bound to it.
 */
public final class LogbackFixtures {

	/** The tag of the tests that need Logback on the class path (their own execution). */
	public static final String TAG = "logback";

	private LogbackFixtures() {
	}

	/**
	 * Stalls whose WARN and ERROR events wait the longest the starter allows for room in
	 * a full queue: for the tests of what waits, which release the output well before.
	 * @return the stalls
	 */
	public static LogStalls waitingALongTime() {
		return new LogStalls(LoggingDefaultsProperties.MAX_QUEUE_FULL_TIMEOUT);
	}

	/**
	 * A fresh context whose root logs at TRACE.
	 * @return the context, started
	 */
	public static LoggerContext context() {
		LoggerContext context = new LoggerContext();
		// What SLF4J's Logback provider gives the context it makes.
		context.setMDCAdapter(new LogbackMDCAdapter());
		context.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(Level.TRACE);
		context.start();
		return context;
	}

	/**
	 * Records events; when made held, the first event blocks the writing thread until
	 * {@link #release()}.
	 */
	public static class Recording extends AppenderBase<ILoggingEvent> {

		private final List<ILoggingEvent> written = new CopyOnWriteArrayList<>();

		private final CountDownLatch entered = new CountDownLatch(1);

		private final CountDownLatch release;

		private volatile String threadName = "";

		public Recording(String name, boolean held) {
			setName(name);
			this.release = new CountDownLatch(held ? 1 : 0);
		}

		@Override
		protected void append(ILoggingEvent event) {
			this.threadName = Thread.currentThread().getName();
			this.entered.countDown();
			try {
				this.release.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
			this.written.add(event);
		}

		public List<ILoggingEvent> written() {
			return this.written;
		}

		public List<String> messages() {
			return this.written.stream().map(ILoggingEvent::getFormattedMessage).toList();
		}

		public String threadName() {
			return this.threadName;
		}

		public void awaitEntered() throws InterruptedException {
			if (!this.entered.await(30, TimeUnit.SECONDS)) {
				throw new AssertionError("nothing reached the appender");
			}
		}

		public void release() {
			this.release.countDown();
		}

	}

	/**
	 * An appender writing a pattern to memory, as a console appender does to stdout.
	 * @param context the context
	 * @param name its name
	 * @param pattern its pattern
	 * @param out where it writes
	 * @return the appender, started
	 */
	public static OutputStreamAppender<ILoggingEvent> patternAppender(LoggerContext context, String name,
			String pattern, ByteArrayOutputStream out) {
		PatternLayoutEncoder encoder = new PatternLayoutEncoder();
		encoder.setContext(context);
		encoder.setPattern(pattern);
		encoder.start();
		OutputStreamAppender<ILoggingEvent> appender = new OutputStreamAppender<>();
		appender.setContext(context);
		appender.setName(name);
		appender.setEncoder(encoder);
		appender.setOutputStream(out);
		appender.start();
		return appender;
	}

	/**
	 * Runs an action with Boot's logging system set to "none" (Boot's system property),
	 * then puts the property back as it was: Boot then chooses no Logback, whatever the
	 * class path holds.
	 * @param action what runs meanwhile
	 */
	public static void withBootsLoggingSystemNone(Runnable action) {
		String previous = System.getProperty(LoggingSystem.SYSTEM_PROPERTY);
		System.setProperty(LoggingSystem.SYSTEM_PROPERTY, LoggingSystem.NONE);
		try {
			action.run();
		}
		finally {
			if (previous != null) {
				System.setProperty(LoggingSystem.SYSTEM_PROPERTY, previous);
			}
			else {
				System.clearProperty(LoggingSystem.SYSTEM_PROPERTY);
			}
		}
	}

	/**
	 * A class loader that sees Logback, Boot and the rest of the test class path through
	 * its parent, but SLF4J's API of its own, which finds no provider: Boot chooses
	 * Logback with it while SLF4J's logger factory is SLF4J's no-operation one, not
	 * Logback's context. SLF4J's own process-wide binding is left as it is.
	 * @param parent where every other class comes from
	 * @return the class loader; close it after the test
	 */
	public static URLClassLoader slf4jNotBoundToLogback(ClassLoader parent) {
		URL slf4jApi = org.slf4j.LoggerFactory.class.getProtectionDomain().getCodeSource().getLocation();
		return new Slf4jWithoutProvider(slf4jApi, parent);
	}

	/**
	 * Loads SLF4J's classes itself (child first) and hides SLF4J's provider files, so
	 * that its SLF4J falls back to the no-operation factory.
	 */
	private static final class Slf4jWithoutProvider extends URLClassLoader {

		private static final String PROVIDERS = "META-INF/services/org.slf4j.spi.SLF4JServiceProvider";

		Slf4jWithoutProvider(URL slf4jApi, ClassLoader parent) {
			super(new URL[] { slf4jApi }, parent);
		}

		@Override
		protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
			if (!name.startsWith("org.slf4j.")) {
				return super.loadClass(name, resolve);
			}
			synchronized (getClassLoadingLock(name)) {
				Class<?> loaded = findLoadedClass(name);
				if (loaded == null) {
					loaded = findClass(name);
				}
				if (resolve) {
					resolveClass(loaded);
				}
				return loaded;
			}
		}

		@Override
		public Enumeration<URL> getResources(String name) throws IOException {
			return PROVIDERS.equals(name) ? Collections.emptyEnumeration() : super.getResources(name);
		}

		@Override
		public URL getResource(String name) {
			return PROVIDERS.equals(name) ? null : super.getResource(name);
		}

	}

}
