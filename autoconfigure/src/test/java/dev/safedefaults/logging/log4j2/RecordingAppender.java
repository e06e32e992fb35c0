package dev.safedefaults.logging.log4j2;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.NullConfiguration;
import org.apache.logging.log4j.core.config.Property;

/**
 * An appender that records what it writes and can be held (stalled) on a latch, like a
 * log shipper that stops reading.
 */
public class RecordingAppender extends AbstractAppender {

	private final CountDownLatch release;

	private final CountDownLatch entered = new CountDownLatch(1);

	private final List<LogEvent> written = new CopyOnWriteArrayList<>();

	/**
	 * Creates the appender.
	 * @param name its name
	 * @param stalled whether it holds every event until {@link #release}
	 */
	public RecordingAppender(String name, boolean stalled) {
		super(name, null, null, true, Property.EMPTY_ARRAY);
		this.release = new CountDownLatch(stalled ? 1 : 0);
	}

	/**
	 * Starts a context with no configuration of its own and a recording appender as its
	 * root logger's only appender, every level enabled.
	 * @param context the context, not started yet
	 * @param stalled whether the appender holds every event until {@link #release}
	 * @return the appender
	 */
	public static RecordingAppender startAsOnlyAppender(LoggerContext context, boolean stalled) {
		context.start(new NullConfiguration());
		Configuration config = context.getConfiguration();
		RecordingAppender appender = new RecordingAppender("recording", stalled);
		appender.start();
		config.addAppender(appender);
		LoggerConfig root = config.getRootLogger();
		root.getAppenders().keySet().forEach(root::removeAppender);
		root.addAppender(appender, Level.ALL, null);
		root.setLevel(Level.ALL);
		context.updateLoggers();
		return appender;
	}

	@Override
	public void append(LogEvent event) {
		this.entered.countDown();
		try {
			this.release.await(5, TimeUnit.MINUTES);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		this.written.add(event.toImmutable());
	}

	/**
	 * Lets the held events, and every later one, be written.
	 */
	public void release() {
		this.release.countDown();
	}

	/**
	 * Waits until an event has reached the appender: held there, when it is stalled.
	 * @return whether one did within 30 seconds
	 * @throws InterruptedException when interrupted
	 */
	public boolean awaitEntered() throws InterruptedException {
		return this.entered.await(30, TimeUnit.SECONDS);
	}

	/**
	 * The events written, in order.
	 * @return the events
	 */
	public List<LogEvent> written() {
		return List.copyOf(this.written);
	}

	/**
	 * How many events of a level were written.
	 * @param level the level
	 * @return the count
	 */
	public long written(Level level) {
		return this.written.stream().filter((event) -> event.getLevel() == level).count();
	}

	long writtenAtLeast(Level level) {
		return this.written.stream().filter((event) -> event.getLevel().isMoreSpecificThan(level)).count();
	}

}
