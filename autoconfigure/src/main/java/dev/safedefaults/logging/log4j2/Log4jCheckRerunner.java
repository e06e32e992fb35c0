package dev.safedefaults.logging.log4j2;

import java.beans.PropertyChangeEvent;
import java.beans.PropertyChangeListener;

import dev.safedefaults.check.FindingsStore;
import org.apache.logging.log4j.core.LoggerContext;

import org.springframework.beans.factory.DisposableBean;

/**
 * Runs the {@link Log4jConfigurationCheck} again whenever Log4j is reconfigured (a
 * changed configuration file, the actuator's {@code loggers} endpoint), so the findings
 * always describe the running configuration.
 */
public class Log4jCheckRerunner implements PropertyChangeListener, DisposableBean {

	private final LoggerContext context;

	private final Log4jConfigurationCheck check;

	private final FindingsStore store;

	/**
	 * Listens to the context.
	 * @param context the logger context
	 * @param check the check
	 * @param store where its findings go
	 */
	public Log4jCheckRerunner(LoggerContext context, Log4jConfigurationCheck check, FindingsStore store) {
		this.context = context;
		this.check = check;
		this.store = store;
		context.addPropertyChangeListener(this);
	}

	@Override
	public void propertyChange(PropertyChangeEvent event) {
		if (LoggerContext.PROPERTY_CONFIG.equals(event.getPropertyName())) {
			// The generation is taken before the check reads the configuration: an older
			// run finishing after a newer one does not overwrite it.
			this.store.update(this.check.name(), () -> this.check.check(this.context));
		}
	}

	@Override
	public void destroy() {
		this.context.removePropertyChangeListener(this);
	}

}
