package dev.safedefaults.httpclient.feign;

import java.util.List;

import dev.safedefaults.check.CheckFindings;
import dev.safedefaults.check.FindingDeclarations;
import dev.safedefaults.check.FindingType;

import static dev.safedefaults.check.Severity.INFO;
import static dev.safedefaults.check.Severity.WARNING;

/**
 * Every finding of the Feign feature (incident 1), declared once.
 */
public final class FeignFindings implements FindingDeclarations {

	/** Args: the codecs that yield a new converters object per call. */
	static final FindingType PER_CALL_CONVERTERS = FindingType.declare("feign.per-call-converters", WARNING,
			"A Feign client's encoder or decoder gets a new converters object on every call (an ObjectFactory, "
					+ "ObjectProvider or Supplier that builds FeignHttpMessageConverters or HttpMessageConverters in "
					+ "getObject()): every call rebuilds every converter (incident 1: throughput fell 25×). Found while "
					+ "the service takes calls (20 converter builds after startup, or 20 calls of an application codec "
					+ "each allocating like a converters build); the check calls no application code.",
			"Its %1$s yields a new converters object on every call: each call rebuilds every converter "
					+ "(incident 1: throughput fell 25×).",
			"Build the converters once: remove the custom Encoder/Decoder (safe-defaults gives every client one set "
					+ "built once), or inject ObjectProvider<FeignHttpMessageConverters> instead of building one in "
					+ "getObject().");

	/** Args: the default converters found, how they got there. */
	static final FindingType DEFAULT_CONVERTERS = FindingType.declare("feign.default-converters", INFO,
			"A Feign client's converters include the defaults (resources, XML, every format on the class path) "
					+ "because the starter's shared set is off or overridden for it.",
			"Its converters include the defaults (%1$s): %2$s; built once they cost memory and startup, rebuilt "
					+ "per call they are incident 1.",
			"Remove the converters bean or codec that brings them, or set safe-defaults.feign.enabled=true; add a "
					+ "converter the client needs as an HttpMessageConverter bean or an "
					+ "HttpMessageConverterCustomizer.");

	/** A client whose context could not be created to inspect it. Args: the failure. */
	static final FindingType CLIENT_NOT_INSPECTED = CheckFindings.CHECKS_FAILED.because(
			"Its codecs could not be inspected: its context failed with %1$s",
			"Fix the client's configuration; the client itself will fail the same way on its first call.");

	/** Args: which timeout, its value in milliseconds, the property. */
	static final FindingType NO_TIMEOUT = FindingType.declare("feign.no-timeout", WARNING,
			"An OpenFeign client's connect or read timeout is set to 0 (or a negative value): it waits for ever on a "
					+ "downstream that accepts the connection and never answers (incident 6). OpenFeign's own defaults "
					+ "(10s connect, 60s read) are kept where nothing is set.",
			"Its %1$s timeout is %2$d ms (%3$s): a downstream that accepts the connection and never answers holds "
					+ "the calling thread for ever, and the service stops answering once every request thread waits.",
			"Set %3$s to a bounded value in milliseconds (OpenFeign's default is 10000 connect, 60000 read), or "
					+ "remove it to keep OpenFeign's default.");

	@Override
	public List<FindingType> findingTypes() {
		return List.of(PER_CALL_CONVERTERS, DEFAULT_CONVERTERS, NO_TIMEOUT);
	}

}
