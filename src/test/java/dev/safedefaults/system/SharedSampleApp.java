package dev.safedefaults.system;

import java.util.List;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives a test a {@link SampleAppProcess} parameter: the packaged sample app with its
 * default settings, started once per test run for every class that only reads from it
 * (requests, the starter's report, the log) and stopped when the run ends (JUnit closes
 * what the root store holds). A test that stops the app, changes its configuration or
 * stalls its output starts its own.
 */
public final class SharedSampleApp implements ParameterResolver {

	private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace
		.create(SharedSampleApp.class);

	@Override
	public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		return parameterContext.getParameter().getType() == SampleAppProcess.class;
	}

	@Override
	public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		return extensionContext.getRoot()
			.getStore(NAMESPACE)
			.computeIfAbsent(SampleAppProcess.class,
					(key) -> SampleAppProcess.start("shared-default", List.of(), List.of()), SampleAppProcess.class);
	}

}
