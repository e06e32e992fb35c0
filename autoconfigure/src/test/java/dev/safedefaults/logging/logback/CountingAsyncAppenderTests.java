package dev.safedefaults.logging.logback;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import ch.qos.logback.classic.AsyncAppender;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.joran.ReconfigureOnChangeTask;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.FileAppender;
import ch.qos.logback.core.joran.spi.JoranException;
import ch.qos.logback.core.joran.util.ConfigurationWatchListUtil;
import ch.qos.logback.core.spi.ConfigurationEvent;
import dev.safedefaults.logging.DroppedLogEvent;
import dev.safedefaults.logging.LogOutputStall;
import dev.safedefaults.logging.LogStalls;
import dev.safedefaults.logging.stop.Unwritten;
import dev.safedefaults.testsupport.OnEveryJdk;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The promise on Logback, on a real Logback context: the application's appenders kept,
 * their format untouched, behind a bounded queue that discards and counts INFO and below
 * when full and makes WARN and ERROR wait.
 */
@OnEveryJdk
@Tag(LogbackFixtures.TAG)
class CountingAsyncAppenderTests {

	private final LoggerContext context = LogbackFixtures.context();

	@AfterEach
	void stop() {
		this.context.stop();
	}

	private Logger root() {
		return this.context.getLogger(Logger.ROOT_LOGGER_NAME);
	}

	private List<Appender<ILoggingEvent>> appenders(Logger logger) {
		List<Appender<ILoggingEvent>> appenders = new ArrayList<>();
		for (Iterator<Appender<ILoggingEvent>> it = logger.iteratorForAppenders(); it.hasNext();) {
			appenders.add(it.next());
		}
		return appenders;
	}

	private LogbackAsyncWrapping wrapping(int capacity) {
		return new LogbackAsyncWrapping(this.context,
				new WrappingSettings(capacity, true, Level.INFO, LogbackFixtures.waitingALongTime()));
	}

	/**
	 * Attaches a held output to the root logger, wraps it (discarding at or below the
	 * threshold), and logs a first INFO event, which the queue's thread takes and stalls
	 * on: from then on the queue fills.
	 * @param stalled the held output
	 * @param capacity the queue's capacity
	 * @param threshold the most severe level that may be discarded
	 * @param first the first event's message
	 * @return the started wrapping
	 */
	private LogbackAsyncWrapping stallBehindWrapping(LogbackFixtures.Recording stalled, int capacity, Level threshold,
			String first) throws InterruptedException {
		stalled.setContext(this.context);
		stalled.start();
		root().addAppender(stalled);
		LogbackAsyncWrapping wrapping = new LogbackAsyncWrapping(this.context,
				new WrappingSettings(capacity, true, threshold, LogbackFixtures.waitingALongTime()));
		wrapping.afterPropertiesSet();
		root().info(first);
		stalled.awaitEntered();
		return wrapping;
	}

	@Test
	void theApplicationsAppenderIsKeptBehindTheQueueAndItsFormatIsUntouched() throws Exception {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		Appender<ILoggingEvent> json = LogbackFixtures.patternAppender(this.context, "JSON",
				"{\"level\":\"%level\",\"logger\":\"%logger\",\"message\":\"%msg\"}%n", out);
		root().addAppender(json);
		wrapping(128).afterPropertiesSet();
		this.context.getLogger("com.example.Orders").info("order {} placed", 42);
		List<Appender<ILoggingEvent>> appenders = appenders(root());
		assertThat(appenders).singleElement().isInstanceOf(CountingAsyncAppender.class);
		CountingAsyncAppender wrapper = (CountingAsyncAppender) appenders.get(0);
		assertThat(wrapper.getDelegate()).isSameAs(json);
		assertThat(wrapper.getName()).isEqualTo("JSON");
		assertThat(wrapper.awaitEmpty(System.nanoTime() + 30_000_000_000L)).isTrue();
		assertThat(out.toString(StandardCharsets.UTF_8))
			.isEqualTo("{\"level\":\"INFO\",\"logger\":\"com.example.Orders\",\"message\":\"order 42 placed\"}"
					+ System.lineSeparator());
	}

	@Test
	void eventsAreWrittenByTheQueuesThreadNotTheCallers() throws Exception {
		LogbackFixtures.Recording recording = new LogbackFixtures.Recording("APP", false);
		recording.setContext(this.context);
		recording.start();
		root().addAppender(recording);
		wrapping(128).afterPropertiesSet();
		root().info("hello");
		await().until(() -> recording.written().size() == 1);
		assertThat(recording.threadName()).isEqualTo("safe-defaults-logback-APP");
	}

	@Test
	void whenTheQueueIsFullInfoIsDiscardedAndCountedAndWarnAndErrorWaitAndAreWritten() throws Exception {
		LogbackFixtures.Recording stalled = new LogbackFixtures.Recording("STDOUT", true);
		LogbackAsyncWrapping wrapping = stallBehindWrapping(stalled, 2, Level.INFO,
				"taken by the queue's thread, which the stalled output holds");
		root().info("queued 1");
		root().info("queued 2");
		for (int i = 0; i < 5; i++) {
			// The request thread never waits at INFO: these return at once, counted.
			root().info("discarded " + i);
			root().debug("discarded debug " + i);
		}
		assertThat(wrapping.discardedCount()).isEqualTo(10);
		Thread warn = new Thread(() -> root().warn("a warning waits"));
		Thread error = new Thread(() -> root().error("an error waits"));
		warn.start();
		error.start();
		// Both wait for space (parked in the queue's offer, for at most the bound),
		// neither
		// is dropped.
		await().until(
				() -> warn.getState() == Thread.State.TIMED_WAITING && error.getState() == Thread.State.TIMED_WAITING);
		assertThat(wrapping.discardedCount()).isEqualTo(10);
		stalled.release();
		warn.join();
		error.join();
		await().until(() -> stalled.written().size() == 5);
		assertThat(stalled.messages()).contains("a warning waits", "an error waits")
			.noneMatch((message) -> message.startsWith("discarded"));
	}

	@Test
	void aWarnThatWaitedTheWholeBoundStallsTheOutputLaterOnesAreDroppedAtOnceAndOneLineSaysWhatWasLostOnceItMoves()
			throws Exception {
		LogbackFixtures.Recording stalled = new LogbackFixtures.Recording("STDOUT", true);
		stalled.setContext(this.context);
		stalled.start();
		root().addAppender(stalled);
		LogStalls stalls = new LogStalls(Duration.ofMillis(300));
		new LogbackAsyncWrapping(this.context, new WrappingSettings(2, true, Level.INFO, stalls)).afterPropertiesSet();
		root().info("taken by the queue's thread, which the stalled output holds");
		stalled.awaitEntered();
		root().info("queued 1");
		root().info("queued 2");
		long start = System.nanoTime();
		root().warn("the first warning waits the bound");
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
		assertThat(stalls.stalled()).extracting(LogOutputStall::name).containsExactly("Logback appender 'STDOUT'");
		List<Thread> requests = new ArrayList<>();
		start = System.nanoTime();
		for (int i = 0; i < 20; i++) {
			int request = i;
			Thread thread = new Thread(() -> {
				root().warn("request {} warns", request);
				root().error("request {} fails", request, new IllegalStateException("password=hunter2"));
			});
			thread.start();
			requests.add(thread);
		}
		for (Thread request : requests) {
			request.join(Duration.ofMinutes(1).toMillis());
		}
		assertThat(Duration.ofNanos(System.nanoTime() - start)).as("20 WARN and 20 ERROR once the stall is known")
			.isLessThan(Duration.ofMillis(300));
		assertThat(stalls.warnDropped()).isEqualTo(21);
		assertThat(stalls.errorDropped()).isEqualTo(20);
		DroppedLogEvent last = stalls.recent().get(LogStalls.RECENT - 1);
		assertThat(last.source()).isEqualTo(Logger.ROOT_LOGGER_NAME);
		assertThat(last.message()).matches("request \\d+ (warns|fails.*)");
		assertThat(stalls.recent()).filteredOn((event) -> event.level().equals("ERROR"))
			.allSatisfy((event) -> assertThat(event.message())
				.endsWith(" — java.lang.IllegalStateException: password=******"));
		stalled.release();
		await().atMost(Duration.ofSeconds(30))
			.until(() -> stalled.messages()
				.stream()
				.anyMatch((message) -> message.startsWith("safe-defaults: the log output Logback appender 'STDOUT' "
						+ "could not take 21 WARN and 20 ERROR events from ")));
		assertThat(stalls.stalled()).isEmpty();
		assertThat(stalled.messages()).noneMatch((message) -> message.startsWith("request"))
			.contains("queued 1", "queued 2");
	}

	@Test
	void anEventDiscardedByTheFullQueueIsNeverFormatted() throws Exception {
		// A discarded INFO costs its caller no formatting: the argument is never
		// rendered.
		LogbackFixtures.Recording stalled = new LogbackFixtures.Recording("STDOUT", true);
		LogbackAsyncWrapping wrapping = stallBehindWrapping(stalled, 1, Level.INFO,
				"taken by the queue's thread, which the stalled output holds");
		root().info("queued");
		AtomicInteger rendered = new AtomicInteger();
		Object argument = new Object() {
			@Override
			public String toString() {
				rendered.incrementAndGet();
				return "rendered";
			}
		};
		root().info("discarded {}", argument);
		assertThat(wrapping.discardedCount()).isEqualTo(1);
		assertThat(rendered).as("times the discarded event's argument was rendered").hasValue(0);
		stalled.release();
		await().until(() -> stalled.written().size() == 2);
		// Queued, it is prepared on the calling thread, as before.
		root().info("kept {}", argument);
		assertThat(rendered).hasValue(1);
		await().until(() -> stalled.written().size() == 3);
		assertThat(stalled.messages()).contains("kept rendered")
			.noneMatch((message) -> message.startsWith("discarded"));
	}

	@Test
	void anErrorWhoseThreadWaitsForRoomInTheFullQueueIsCountedInTheBacklog() throws Exception {
		// A stop that comes while a request thread waits to queue an ERROR counts it: the
		// JVM may exit before it is ever queued.
		LogbackFixtures.Recording stalled = new LogbackFixtures.Recording("STDOUT", true);
		stallBehindWrapping(stalled, 1, Level.INFO, "taken by the queue's thread, which the stalled output holds");
		root().info("queued");
		Thread error = new Thread(() -> root().error("an error waits"));
		error.start();
		await().until(() -> error.getState() == Thread.State.TIMED_WAITING);
		CountingAsyncAppender wrapper = LogbackAsyncWrapping.wrappers(this.context).get(0);
		assertThat(wrapper.backlog()).as("being written, queued, waiting for room").isEqualTo(new Unwritten(3, 1));
		stalled.release();
		error.join();
		await().until(() -> stalled.written().size() == 3);
		assertThat(wrapper.backlog()).isEqualTo(Unwritten.NONE);
	}

	@Test
	void aThresholdOfDebugMakesInfoWait() throws Exception {
		LogbackFixtures.Recording stalled = new LogbackFixtures.Recording("STDOUT", true);
		LogbackAsyncWrapping wrapping = stallBehindWrapping(stalled, 1, Level.DEBUG, "taken");
		root().info("queued");
		root().debug("discarded");
		Thread info = new Thread(() -> root().info("waits"));
		info.start();
		await().until(() -> info.getState() == Thread.State.TIMED_WAITING);
		stalled.release();
		info.join();
		await().until(() -> stalled.written().size() == 3);
		assertThat(wrapping.discardedCount()).isEqualTo(1);
	}

	@Test
	void noCallerDataIsTakenOnTheCallingThread() throws Exception {
		LogbackFixtures.Recording recording = new LogbackFixtures.Recording("APP", false);
		recording.setContext(this.context);
		recording.start();
		root().addAppender(recording);
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		root().addAppender(LogbackFixtures.patternAppender(this.context, "LOCATION", "%M:%L%n", out));
		wrapping(128).afterPropertiesSet();
		root().info("where?");
		await().until(() -> recording.written().size() == 1 && out.size() > 0);
		assertThat(recording.written().get(0).getCallerData()).isEmpty();
		assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("?:?" + System.lineSeparator());
	}

	@Test
	void appendersAreWrappedOnceAndAnAsyncAppenderIsKeptBehindAGateNotAQueue() throws Exception {
		LogbackFixtures.Recording recording = new LogbackFixtures.Recording("APP", false);
		recording.setContext(this.context);
		recording.start();
		Logger orders = this.context.getLogger("com.example.Orders");
		root().addAppender(recording);
		orders.addAppender(recording);
		AsyncAppender async = new AsyncAppender();
		async.setContext(this.context);
		async.setName("ASYNC");
		async.start();
		root().addAppender(async);
		LogbackAsyncWrapping wrapping = wrapping(128);
		assertThat(wrapping.wrap()).isEqualTo(1);
		assertThat(wrapping.wrap()).isZero();
		assertThat(wrapping.gatedNames()).containsExactly("ASYNC");
		// Another application context's wrapping takes the appender over: never a queue
		// behind a queue.
		WrappingSettings another = new WrappingSettings(256, true, Level.INFO, LogbackFixtures.waitingALongTime());
		assertThat(new LogbackAsyncWrapping(this.context, another).wrap()).isEqualTo(1);
		List<Appender<ILoggingEvent>> rootAppenders = appenders(root());
		assertThat(rootAppenders).hasSize(2).doesNotContain(async);
		CountingAsyncAppender wrapper = (CountingAsyncAppender) rootAppenders.stream()
			.filter(CountingAsyncAppender.class::isInstance)
			.findFirst()
			.orElseThrow();
		assertThat(wrapper.getDelegate()).isSameAs(recording);
		assertThat(wrapper.getQueueCapacity()).isEqualTo(256);
		AsyncAppenderGate gate = (AsyncAppenderGate) rootAppenders.stream()
			.filter(AsyncAppenderGate.class::isInstance)
			.findFirst()
			.orElseThrow();
		assertThat(gate.getDelegate()).isSameAs(async);
		assertThat(gate.settings()).isSameAs(another);
		// One queue for the appender wherever it is attached.
		assertThat(appenders(orders)).containsExactly(wrapper);
		assertThat(LogbackAsyncWrapping.wrappers(this.context)).containsExactly(wrapper);
	}

	@Test
	void anApplicationsAsyncAppenderOnAStalledOutputHoldsAWarnAtMostTheBoundThenDropsAndCountsUntilItMoves()
			throws Exception {
		LogbackFixtures.Recording stalled = new LogbackFixtures.Recording("STDOUT", true);
		stalled.setContext(this.context);
		stalled.start();
		AsyncAppender async = new AsyncAppender();
		async.setContext(this.context);
		async.setName("ASYNC");
		async.setQueueSize(10);
		async.addAppender(stalled);
		async.start();
		root().addAppender(async);
		LogStalls stalls = new LogStalls(Duration.ofMillis(300));
		new LogbackAsyncWrapping(this.context, new WrappingSettings(128, true, Level.INFO, stalls))
			.afterPropertiesSet();
		root().warn("taken by the AsyncAppender's thread, which the stalled output holds");
		stalled.awaitEntered();
		for (int i = 0; i < 10; i++) {
			root().warn("queued " + i);
		}
		assertThat(async.getRemainingCapacity()).isZero();
		long start = System.nanoTime();
		root().error("the first error waits the bound");
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
		assertThat(stalls.stalled()).extracting(LogOutputStall::name).containsExactly("Logback appender 'ASYNC'");
		start = System.nanoTime();
		for (int i = 0; i < 20; i++) {
			root().error("request {} fails", i);
		}
		assertThat(Duration.ofNanos(System.nanoTime() - start)).as("20 ERROR once the stall is known")
			.isLessThan(Duration.ofMillis(300));
		assertThat(stalls.errorDropped()).isEqualTo(21);
		stalled.release();
		await().atMost(Duration.ofSeconds(30)).until(() -> async.getRemainingCapacity() == 10);
		root().info("the next event after the output moved");
		await().atMost(Duration.ofSeconds(30))
			.until(() -> stalled.messages().contains("the next event after the output moved"));
		assertThat(stalled.messages()).filteredOn((message) -> message.startsWith("safe-defaults: the log output "
				+ "Logback appender 'ASYNC' could not take 0 WARN and 21 ERROR events from "))
			.hasSize(1);
		assertThat(stalls.stalled()).isEmpty();
	}

	@Test
	void appendersOfALaterConfigurationAreWrappedUntilTheApplicationContextCloses() throws Exception {
		LogbackAsyncWrapping wrapping = wrapping(128);
		wrapping.afterPropertiesSet();
		configure();
		assertThat(appenders(root())).singleElement().isInstanceOf(CountingAsyncAppender.class);
		assertThat(wrapping.wrappedNames()).containsExactly("CONSOLE");
		wrapping.destroy();
		configure();
		assertThat(appenders(root())).singleElement().isNotInstanceOf(CountingAsyncAppender.class);
	}

	private void configure() throws JoranException {
		this.context.reset();
		JoranConfigurator configurator = new JoranConfigurator();
		configurator.setContext(this.context);
		String xml = """
				<configuration>
				  <appender name="CONSOLE" class="ch.qos.logback.core.ConsoleAppender">
				    <encoder><pattern>%msg%n</pattern></encoder>
				  </appender>
				  <root level="INFO"><appender-ref ref="CONSOLE"/></root>
				</configuration>
				""";
		configurator.doConfigure(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
	}

	@Test
	void appendersOfAConfigurationLogbackReloadsOnItsOwnScanAreWrappedOnceAndWriteTheNextEvent(@TempDir Path dir)
			throws Exception {
		Path logbackXml = dir.resolve("logback.xml");
		Path afterTheRescan = dir.resolve("after-the-rescan.log");
		Files.writeString(logbackXml, scanned("""
				<appender name="CONSOLE" class="ch.qos.logback.core.ConsoleAppender">
				  <encoder><pattern>%msg%n</pattern></encoder>
				</appender>
				<root level="INFO"><appender-ref ref="CONSOLE"/></root>
				"""));
		List<ReconfigureOnChangeTask> scanners = new CopyOnWriteArrayList<>();
		this.context.addConfigurationEventListener((event) -> {
			if (event.getEventType() == ConfigurationEvent.EventType.CHANGE_DETECTOR_REGISTERED
					&& event.getData() instanceof ReconfigureOnChangeTask scanner) {
				scanners.add(scanner);
			}
		});
		JoranConfigurator configurator = new JoranConfigurator();
		configurator.setContext(this.context);
		configurator.doConfigure(logbackXml.toFile());
		assertThat(ConfigurationWatchListUtil.getConfigurationWatchList(this.context).getCopyOfFileWatchList())
			.containsExactly(logbackXml.toFile());
		assertThat(scanners).hasSize(1);
		LogbackAsyncWrapping wrapping = wrapping(128);
		wrapping.afterPropertiesSet();
		assertThat(wrapping.wrappedNames()).containsExactly("CONSOLE");

		FileTime configured = Files.getLastModifiedTime(logbackXml);
		Files.writeString(logbackXml, scanned("""
				<appender name="FILE" class="ch.qos.logback.core.FileAppender">
				  <file>%s</file>
				  <encoder><pattern>%%msg%%n</pattern></encoder>
				</appender>
				<root level="INFO"><appender-ref ref="FILE"/></root>
				""".formatted(afterTheRescan)));
		// The scan compares modification times: make this one differ whatever the file
		// system's granularity.
		Files.setLastModifiedTime(logbackXml, FileTime.fromMillis(configured.toMillis() + 10_000));
		// Logback's own scanner, as it registered itself, run on this thread instead of
		// its scheduler's (a scan period of a day keeps the scheduler out of the test).
		scanners.get(0).run();

		List<Appender<ILoggingEvent>> appenders = appenders(root());
		assertThat(appenders).singleElement().isInstanceOf(CountingAsyncAppender.class);
		CountingAsyncAppender wrapper = (CountingAsyncAppender) appenders.get(0);
		assertThat(wrapper.getDelegate()).isInstanceOf(FileAppender.class);
		assertThat(wrapper.getDelegate().getName()).isEqualTo("FILE");
		assertThat(LogbackAsyncWrapping.wrappers(this.context)).containsExactly(wrapper);
		this.context.getLogger("com.example.Orders").info("logged after the rescan");
		assertThat(wrapper.awaitEmpty(System.nanoTime() + TimeUnit.SECONDS.toNanos(30))).isTrue();
		assertThat(Files.readString(afterTheRescan)).isEqualTo("logged after the rescan" + System.lineSeparator());
	}

	private static String scanned(String configuration) {
		return "<configuration scan=\"true\" scanPeriod=\"1 day\">" + configuration + "</configuration>";
	}

	@Test
	void aStoppedWrapperWritesItsQueueThenStopsTheAppender() throws Exception {
		LogbackFixtures.Recording stalled = new LogbackFixtures.Recording("STDOUT", true);
		stallBehindWrapping(stalled, 128, Level.INFO, "one");
		root().warn("two");
		root().error("three");
		stalled.release();
		this.context.stop();
		assertThat(stalled.messages()).containsExactly("one", "two", "three");
		assertThat(stalled.isStarted()).isFalse();
	}

}
