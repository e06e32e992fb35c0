package dev.safedefaults.httpclient.feign;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.httpclient.HttpClientConvertersAutoConfiguration;
import dev.safedefaults.httpclient.feign.TestClients.GreetingClient;
import dev.safedefaults.httpclient.feign.TestClients.OtherClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cloud.openfeign.FeignAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Boot's {@code HttpMessageConverters} is deprecated for removal in Boot 4.2: the Feign
 * feature and its checks know it only by name, so nothing of the starter fails to load
 * when it is gone.
 */
class WithoutBootsHttpMessageConvertersTests {

	private static final String BOOTS_HTTP_MESSAGE_CONVERTERS = "org.springframework.boot.http.converter.autoconfigure.HttpMessageConverters";

	private static LoopbackServer server;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withClassLoader(new FilteredClassLoader(BOOTS_HTTP_MESSAGE_CONVERTERS::equals))
		.withConfiguration(
				AutoConfigurations.of(SafeDefaultsAutoConfiguration.class, HttpClientConvertersAutoConfiguration.class,
						FeignConvertersAutoConfiguration.class, JacksonAutoConfiguration.class,
						HttpMessageConvertersAutoConfiguration.class, FeignAutoConfiguration.class))
		.withUserConfiguration(FeignConvertersAutoConfigurationTests.TwoClients.class)
		.withPropertyValues("test.server.url=" + server.url());

	@BeforeAll
	static void startServer() {
		server = LoopbackServer.start();
	}

	@AfterAll
	static void stopServer() {
		server.close();
	}

	@Test
	void noClassOfTheStarterReferencesIt() throws Exception {
		// A FilteredClassLoader hides the class from conditions and ClassUtils.isPresent,
		// not
		// from classes the application class loader links: a direct reference would still
		// link here and fail on Boot 4.2. So: no compiled class names it as a type.
		Path classes = Path
			.of(CodecAllocationCapability.class.getProtectionDomain().getCodeSource().getLocation().toURI());
		byte[] reference = BOOTS_HTTP_MESSAGE_CONVERTERS.replace('.', '/').getBytes(StandardCharsets.UTF_8);
		List<Path> referencing;
		try (Stream<Path> files = Files.walk(classes)) {
			referencing = files.filter((file) -> file.toString().endsWith(".class"))
				.filter((file) -> referencesType(file, reference))
				.toList();
		}
		assertThat(classes.resolve("dev/safedefaults/httpclient/feign/CodecAllocationCapability.class"))
			.isRegularFile();
		assertThat(referencing).isEmpty();
	}

	private static boolean referencesType(Path classFile, byte[] reference) {
		try {
			byte[] bytes = Files.readAllBytes(classFile);
			outer: for (int i = 0; i + reference.length < bytes.length; i++) {
				for (int j = 0; j < reference.length; j++) {
					if (bytes[i + j] != reference[j]) {
						continue outer;
					}
				}
				// the type itself (followed by ';' or the end of its name), not a longer
				// name
				byte next = bytes[i + reference.length];
				if (next == ';' || next < 'A') {
					return true;
				}
			}
			return false;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Test
	void theClassIsReallyHidden() {
		this.runner.run((context) -> assertThat(
				org.springframework.util.ClassUtils.isPresent(BOOTS_HTTP_MESSAGE_CONVERTERS, context.getClassLoader()))
			.isFalse());
	}

	@Test
	void theSharedConvertersServeTheClientsAndTheChecksRun() {
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(FeignConvertersAutoConfigurationTests.converters(context, "greetings"))
				.isInstanceOf(FrozenFeignHttpMessageConverters.class)
				.isSameAs(FeignConvertersAutoConfigurationTests.converters(context, "others"));
			assertThat(context.getBean(GreetingClient.class).greeting("Ada").firstName()).isEqualTo("Hello Ada");
			assertThat(context.getBean(OtherClient.class).greeting("Bob").firstName()).isEqualTo("Hello Bob");
			assertThat(context.getBean(FindingsStore.class).findings()).isEmpty();
		});
	}

}
