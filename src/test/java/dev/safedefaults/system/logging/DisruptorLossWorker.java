package dev.safedefaults.system.logging;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import dev.safedefaults.logging.LoggingSystemCheck;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.async.AsyncQueueFullPolicyFactory;
import org.apache.logging.log4j.core.config.Property;

import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.mock.env.MockEnvironment;

/**
 * Saturates an all-async Log4j context (ring of 128 slots, a slow appender) with WARN
 * events from four threads, then stops it and prints how many were written and which
 * queue-full policy Log4j used. Run in its own JVM with the Disruptor on the class path
 * under test.
 */
public final class DisruptorLossWorker {

	private static final int THREADS = 4;

	private static final int PER_THREAD = 5_000;

	private DisruptorLossWorker() {
	}

	public static void main(String[] args) throws Exception {
		Path config = Files.createTempFile("loss", ".xml");
		Files.writeString(config, """
				<Configuration status="WARN">
				  <Appenders><Console name="Console" target="SYSTEM_ERR"/></Appenders>
				  <Loggers><Root level="OFF"><AppenderRef ref="Console"/></Root></Loggers>
				</Configuration>
				""");
		System.setProperty("log4j2.configurationFile", config.toString());
		Logger logger = LogManager.getLogger("loss");
		LoggerContext context = (LoggerContext) LogManager.getContext(false);
		SlowCountingAppender appender = new SlowCountingAppender();
		appender.start();
		context.getConfiguration().addAppender(appender);
		context.getConfiguration()
			.getRootLogger()
			.getAppenders()
			.keySet()
			.forEach(context.getConfiguration().getRootLogger()::removeAppender);
		context.getConfiguration().getRootLogger().addAppender(appender, Level.ALL, null);
		context.getConfiguration().getRootLogger().setLevel(Level.INFO);
		context.updateLoggers();
		List<Thread> threads = new ArrayList<>();
		for (int t = 0; t < THREADS; t++) {
			Thread thread = new Thread(() -> {
				for (int i = 0; i < PER_THREAD; i++) {
					logger.warn("warning {}", i);
				}
			});
			threads.add(thread);
			thread.start();
		}
		for (Thread thread : threads) {
			thread.join();
		}
		context.stop(2, TimeUnit.MINUTES);
		DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
		List<String> ids = new LoggingSystemCheck(beans.getBeanProvider(LoggingSystem.class), new MockEnvironment(),
				DisruptorLossWorker.class.getClassLoader())
			.run()
			.stream()
			.map((finding) -> finding.id())
			.toList();
		System.out.println("RESULT context=" + context.getClass().getSimpleName() + " policy="
				+ AsyncQueueFullPolicyFactory.create().getClass().getName() + " logged=" + (THREADS * PER_THREAD)
				+ " written=" + appender.written.get() + " findings=" + ids);
		Runtime.getRuntime().halt(0);
	}

	static final class SlowCountingAppender extends AbstractAppender {

		final AtomicLong written = new AtomicLong();

		SlowCountingAppender() {
			super("slow", null, null, true, Property.EMPTY_ARRAY);
		}

		@Override
		public void append(LogEvent event) {
			LockSupport.parkNanos(20_000);
			this.written.incrementAndGet();
		}

	}

}
