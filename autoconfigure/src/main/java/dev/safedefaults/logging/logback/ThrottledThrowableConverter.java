package dev.safedefaults.logging.logback;

import ch.qos.logback.classic.pattern.ExtendedThrowableProxyConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxy;
import ch.qos.logback.core.CoreConstants;
import dev.safedefaults.logging.stacktrace.StackTraceThrottling;
import dev.safedefaults.logging.stacktrace.ThrottledStackTraces;

/**
 * {@code %throttledEx} on Logback: what it is on Log4j2
 * ({@code ThrottledThrowablePatternConverter}), on Spring Boot's Logback rendering. The
 * first {@code first-n} throwables of a kind in an interval are printed as Boot's Logback
 * {@code %wEx} prints them (the extended stack trace, {@code %xEx}, set off by a line
 * separator before and after), their messages masked; the repeats get one line without
 * the message (incident 6). The kinds, the one line, the masking and the settings
 * ({@code safe-defaults.logging.stack-traces.*}, through {@link StackTraceThrottling})
 * are those of {@link ThrottledStackTraces}, shared with the Log4j2 converter; each
 * converter instance (one per layout) keeps its own kinds.
 * <p>
 * Logback finds it under {@code throttledEx}, {@code throttledThrowable} and
 * {@code throttledException} once {@link ThrottledThrowableConverterRegistration} has
 * registered it (before Boot configures Logback), or from the application's own
 * {@code <conversionRule conversionWord="throttledEx" class=
 * "…ThrottledThrowableConverter"/>}. It is a {@code ThrowableHandlingConverter}, so
 * Logback does not append its own {@code %ex} after it. Options are those of {@code %xEx}
 * (a depth, evaluators, frames to ignore); with a depth of {@code 0} it renders as
 * {@code %wEx} would (masked), without throttling. An event whose throwable was
 * serialized (no {@code Throwable} behind its proxy) is always printed in full.
 */
public class ThrottledThrowableConverter extends ExtendedThrowableProxyConverter {

	/** The conversion words Logback knows it under, as on Log4j2. */
	static final String[] CONVERSION_WORDS = { "throttledEx", "throttledThrowable", "throttledException" };

	private static final String SEPARATOR = CoreConstants.LINE_SEPARATOR;

	private final ThrottledStackTraces traces = new ThrottledStackTraces();

	private boolean throttles = true;

	@Override
	public void start() {
		String depth = getFirstOption();
		this.throttles = depth == null || !depth.trim().equals("0");
		super.start();
	}

	@Override
	public String convert(ILoggingEvent event) {
		IThrowableProxy proxy = event.getThrowableProxy();
		if (proxy == null) {
			return CoreConstants.EMPTY_STRING;
		}
		StringBuilder buffer = new StringBuilder();
		buffer.append(SEPARATOR);
		Throwable thrown = (proxy instanceof ThrowableProxy throwableProxy) ? throwableProxy.getThrowable() : null;
		if (this.throttles && thrown != null
				&& this.traces.appendOneLineIfRepeat(buffer, thrown, event.getTimeStamp())) {
			buffer.append(SEPARATOR);
		}
		else {
			String fullTrace = super.convert(event);
			if (fullTrace.isEmpty()) {
				// An evaluator said no stack trace: nothing, as %wEx would print.
				return fullTrace;
			}
			int start = buffer.length();
			buffer.append(fullTrace);
			ThrottledStackTraces.maskFullTrace(buffer, start, SEPARATOR);
		}
		buffer.append(SEPARATOR);
		return buffer.toString();
	}

	/**
	 * How many kinds this converter remembers.
	 * @return the number of kinds
	 */
	int rememberedKinds() {
		return this.traces.rememberedKinds();
	}

}
