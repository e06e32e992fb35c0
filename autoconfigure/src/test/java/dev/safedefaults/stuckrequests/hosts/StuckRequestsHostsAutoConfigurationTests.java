package dev.safedefaults.stuckrequests.hosts;

import java.net.ProxySelector;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.stuckrequests.HostsCalled;
import dev.safedefaults.stuckrequests.StuckRequestsAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The watch's hosts route: {@code DestinationRecorder} registers each context with the
 * JVM's one {@code HostsCalledSelector}, shared by every context and put back when the
 * last closes; the watch asks it, as a {@code HostsCalled}, whether the hosts are learnt.
 */
class StuckRequestsHostsAutoConfigurationTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SafeDefaultsAutoConfiguration.class,
				StuckRequestsAutoConfiguration.class, StuckRequestsHostsAutoConfiguration.class))
		.withPropertyValues("safe-defaults.checks.enabled=false");

	@Test
	void everyContextOfTheJvmSharesOneProxySelectorWhichIsPutBackWhenTheLastCloses() {
		ProxySelector before = ProxySelector.getDefault();
		this.runner.run((first) -> {
			ProxySelector shared = ProxySelector.getDefault();
			assertThat(shared).isInstanceOf(HostsCalledSelector.class);
			assertThat(first.getBean(HostsCalled.class).isRecording()).isTrue();
			this.runner.run((second) -> {
				assertThat(ProxySelector.getDefault()).as("not wrapped again").isSameAs(shared);
				assertThat(second.getBean(DestinationRecorder.class).isRecording()).isTrue();
			});
			assertThat(ProxySelector.getDefault()).as("kept while a context still learns").isSameAs(shared);
			assertThat(first.getBean(DestinationRecorder.class).isRecording()).isTrue();
		});
		assertThat(ProxySelector.getDefault()).as("the JVM's proxy selector put back").isSameAs(before);
	}

	@Test
	void withoutTheWatchNoContextRegisters() {
		ProxySelector before = ProxySelector.getDefault();
		this.runner.withPropertyValues("safe-defaults.stuck-requests.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(DestinationRecorder.class));
		assertThat(ProxySelector.getDefault()).isSameAs(before);
	}

}
