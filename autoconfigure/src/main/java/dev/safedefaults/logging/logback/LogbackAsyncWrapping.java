package dev.safedefaults.logging.logback;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.AsyncAppenderBase;
import ch.qos.logback.core.spi.ConfigurationEvent;
import ch.qos.logback.core.spi.ConfigurationEventListener;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.InitializingBean;

/**
 * Wraps every appender of a Logback context in a {@link CountingAsyncAppender}, where it
 * is attached (each logger keeps its own appenders, additivity unchanged), one queue per
 * appender: a slow file appender never holds the console back, and an appender's filters
 * and routing stay exactly as configured. Appenders that are asynchronous already are not
 * queued again: Logback's {@code AsyncAppender} and its kind are kept behind an
 * {@link AsyncAppenderGate}, which bounds how long WARN and ERROR wait for its full
 * queue, and logstash-logback-encoder's {@code AsyncDisruptorAppender} (which drops when
 * full) is left alone, as are those wrapped already; those another application context
 * wrapped in this JVM are wrapped again with this one's settings (one queue per appender,
 * never a queue behind a queue).
 * <p>
 * Boot configures Logback before the application context exists, and again on a
 * reinitialisation; a configuration file may rescan itself. The wrapping is done when
 * this application context starts and again after every configuration Logback reports
 * ({@link ConfigurationEvent}s survive its resets), until the context closes.
 */
public class LogbackAsyncWrapping implements InitializingBean, DisposableBean {

	private static final String ASYNC_DISRUPTOR_APPENDER = "net.logstash.logback.appender.AsyncDisruptorAppender";

	private final LoggerContext context;

	private final WrappingSettings settings;

	private final ConfigurationEventListener rewrap = this::configured;

	/**
	 * Wraps a context's appenders with an application context's settings.
	 * @param context the Logback context
	 * @param settings the settings
	 */
	public LogbackAsyncWrapping(LoggerContext context, WrappingSettings settings) {
		this.context = context;
		this.settings = settings;
	}

	@Override
	public void afterPropertiesSet() {
		this.context.addConfigurationEventListener(this.rewrap);
		wrap();
	}

	private void configured(ConfigurationEvent event) {
		ConfigurationEvent.EventType type = event.getEventType();
		if (type == ConfigurationEvent.EventType.CONFIGURATION_ENDED_SUCCESSFULLY
				|| type == ConfigurationEvent.EventType.PARTIAL_CONFIGURATION_ENDED_SUCCESSFULLY) {
			wrap();
		}
	}

	/**
	 * Wraps the appenders not wrapped yet.
	 * @return how many appenders this wrapped
	 */
	public synchronized int wrap() {
		Map<Appender<ILoggingEvent>, CountingAsyncAppender> wrappers = new IdentityHashMap<>();
		Map<CountingAsyncAppender, Boolean> retired = new IdentityHashMap<>();
		for (Logger logger : this.context.getLoggerList()) {
			List<Appender<ILoggingEvent>> toWrap = new ArrayList<>();
			List<Appender<ILoggingEvent>> toGate = new ArrayList<>();
			for (Iterator<Appender<ILoggingEvent>> it = logger.iteratorForAppenders(); it.hasNext();) {
				Appender<ILoggingEvent> appender = it.next();
				if (appender instanceof CountingAsyncAppender wrapper) {
					if (wrapper.settings() != this.settings) {
						// Another application context's (an earlier run in this JVM, the
						// same Logback context not reconfigured): this one's settings and
						// count are in force from now on.
						toWrap.add(wrapper);
					}
				}
				else if (appender instanceof AsyncAppenderGate gate) {
					if (gate.settings() != this.settings) {
						toGate.add(gate);
					}
				}
				else if (appender instanceof AsyncAppenderBase<?>) {
					toGate.add(appender);
				}
				else if (!isAsyncAlready(appender)) {
					toWrap.add(appender);
				}
			}
			for (Appender<ILoggingEvent> appender : toGate) {
				AsyncAppenderGate gate = gateOf(appender);
				logger.addAppender(gate);
				logger.detachAppender(appender);
				if (appender instanceof AsyncAppenderGate previous) {
					previous.retire();
				}
			}
			for (Appender<ILoggingEvent> appender : toWrap) {
				Appender<ILoggingEvent> application = appender;
				if (appender instanceof CountingAsyncAppender previous) {
					application = previous.getDelegate();
					retired.put(previous, Boolean.TRUE);
				}
				CountingAsyncAppender wrapper = wrappers.computeIfAbsent(application, this::wrapperOf);
				// Attached before the appender leaves: an event in between may be written
				// twice, never lost.
				logger.addAppender(wrapper);
				logger.detachAppender(appender);
			}
		}
		// Their queues are written to the application's appenders, which stay started.
		retired.keySet().forEach(CountingAsyncAppender::retire);
		return wrappers.size();
	}

	@SuppressWarnings("unchecked")
	private AsyncAppenderGate gateOf(Appender<ILoggingEvent> appender) {
		AsyncAppenderBase<ILoggingEvent> application = (appender instanceof AsyncAppenderGate previous)
				? previous.getDelegate() : (AsyncAppenderBase<ILoggingEvent>) appender;
		AsyncAppenderGate gate = new AsyncAppenderGate(application, this.settings);
		gate.setContext(this.context);
		gate.start();
		return gate;
	}

	private CountingAsyncAppender wrapperOf(Appender<ILoggingEvent> appender) {
		CountingAsyncAppender wrapper = new CountingAsyncAppender(appender, this.settings);
		wrapper.setContext(this.context);
		wrapper.start();
		return wrapper;
	}

	/**
	 * The wrapped appenders of a context.
	 * @param context the Logback context
	 * @return each wrapper once
	 */
	public static List<CountingAsyncAppender> wrappers(LoggerContext context) {
		Map<CountingAsyncAppender, Boolean> found = new IdentityHashMap<>();
		for (Logger logger : context.getLoggerList()) {
			for (Iterator<Appender<ILoggingEvent>> it = logger.iteratorForAppenders(); it.hasNext();) {
				if (it.next() instanceof CountingAsyncAppender wrapper) {
					found.put(wrapper, Boolean.TRUE);
				}
			}
		}
		return new ArrayList<>(found.keySet());
	}

	/**
	 * The names of the appenders wrapped now, in this Logback context.
	 * @return their names
	 */
	public List<String> wrappedNames() {
		return wrappers(this.context).stream().map(CountingAsyncAppender::getName).sorted().toList();
	}

	/**
	 * The names of the application's own asynchronous appenders kept behind a gate now,
	 * in this Logback context.
	 * @return their names
	 */
	public List<String> gatedNames() {
		List<String> names = new ArrayList<>();
		for (Logger logger : this.context.getLoggerList()) {
			for (Iterator<Appender<ILoggingEvent>> it = logger.iteratorForAppenders(); it.hasNext();) {
				if (it.next() instanceof AsyncAppenderGate gate && !names.contains(gate.getName())) {
					names.add(gate.getName());
				}
			}
		}
		return names.stream().sorted().toList();
	}

	/**
	 * How many events this application context's settings discarded.
	 * @return the count
	 */
	public long discardedCount() {
		return this.settings.discardedCount();
	}

	/**
	 * This application context's settings.
	 * @return the settings
	 */
	public WrappingSettings settings() {
		return this.settings;
	}

	@Override
	public void destroy() {
		this.context.removeConfigurationEventListener(this.rewrap);
	}

	static boolean isAsyncAlready(Appender<?> appender) {
		if (appender instanceof CountingAsyncAppender || appender instanceof AsyncAppenderBase) {
			return true;
		}
		for (Class<?> type = appender.getClass(); type != null; type = type.getSuperclass()) {
			if (type.getName().equals(ASYNC_DISRUPTOR_APPENDER)) {
				return true;
			}
		}
		return false;
	}

}
