package dev.safedefaults.stuckrequests.reactive;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FeatureStatus;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import reactor.netty.http.HttpResources;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reactive watch's conditions and bounds: on by default in a reactive web application
 * with Reactor Netty, watching the global loops Reactor Netty's clients and server share;
 * off with its own property or the whole watch's; not in a servlet application; a bound
 * out of range fails the start naming the property. Covers {@code EventLoopProperties},
 * {@code ReactorNettyLoops} and {@code ReactiveStuckRequestsFeatureStatus}.
 */
@Tag("reactive")
class StuckRequestsReactiveAutoConfigurationTests {

	private final ReactiveWebApplicationContextRunner runner = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SafeDefaultsAutoConfiguration.class,
				StuckRequestsReactiveAutoConfiguration.class));

	@Test
	void watchesReactorNettysEventLoopsByDefault() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(EventLoopWatch.class);
			EventLoopWatch watch = context.getBean(EventLoopWatch.class);
			assertThat(watch.isRunning()).isTrue();
			assertThat(watch.watched()).isEqualTo((int) java.util.stream.StreamSupport.stream(
					HttpResources.get().onServer(reactor.netty.resources.LoopResources.DEFAULT_NATIVE).spliterator(),
					false)
				.count()).isPositive();
			assertThat(watch.threshold()).hasSeconds(2);
			FeatureStatus status = context.getBean(ReactiveStuckRequestsFeatureStatus.class).status();
			assertThat(status.enabled()).isTrue();
			assertThat(status.shortForm()).isEqualTo("stuck-requests(60s, event loops 2s)");
			assertThat(status.appliedTo()).hasSize(2)
				.anySatisfy((applied) -> assertThat(applied).isEqualTo("WebFlux exchanges running longer than 60s are "
						+ "named with their endpoint and the calls of the WebClients Boot's builder builds that they "
						+ "wait on"))
				.anySatisfy(
						(applied) -> assertThat(applied).contains("Reactor Netty event loops, each with a heartbeat "
								+ "every 200ms; one that runs none of its tasks for longer than 2s is named"));
		});
	}

	@Test
	void notesExchangesAndJoinsTheCallsOfBootsWebClientBuilder() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(InFlightExchangesWebFilter.class)
				.hasSingleBean(StuckExchangesWatch.class)
				.hasBean("safeDefaultsStuckRequestsOutboundCalls");
			assertThat(context.getBean(StuckExchangesWatch.class).threshold()).hasSeconds(60);
		});
	}

	@Test
	void exchangesTakeTheStuckRequestThreshold() {
		this.runner.withPropertyValues("safe-defaults.stuck-requests.threshold=5s")
			.run((context) -> assertThat(context.getBean(StuckExchangesWatch.class).threshold()).hasSeconds(5));
	}

	@Test
	void takesTheBoundSet() {
		this.runner.withPropertyValues("safe-defaults.stuck-requests.event-loop.blocked-threshold=1s")
			.run((context) -> assertThat(context.getBean(EventLoopWatch.class).threshold()).hasSeconds(1));
	}

	@Test
	void refusesABoundOutOfRange() {
		this.runner.withPropertyValues("safe-defaults.stuck-requests.event-loop.blocked-threshold=100ms")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("safe-defaults.stuck-requests.event-loop.blocked-threshold")
				.hasMessageContaining("100ms")
				.hasMessageContaining("Must be from 500ms to 1m"));
	}

	@Test
	void isOffWithItsOwnProperty() {
		this.runner.withPropertyValues("safe-defaults.stuck-requests.event-loop.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(EventLoopWatch.class).hasSingleBean(StuckExchangesWatch.class);
			assertThat(context.getBean(ReactiveStuckRequestsFeatureStatus.class).status().appliedTo())
				.contains("no event loop is watched: safe-defaults.stuck-requests.event-loop.enabled is false");
		});
	}

	@Test
	void isOffWithTheWholeWatch() {
		this.runner.withPropertyValues("safe-defaults.stuck-requests.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(EventLoopWatch.class)
				.doesNotHaveBean(StuckExchangesWatch.class)
				.doesNotHaveBean(InFlightExchangesWebFilter.class);
			assertThat(context.getBean(ReactiveStuckRequestsFeatureStatus.class).status().enabled()).isFalse();
		});
	}

	@Test
	void needsReactorNetty() {
		this.runner.withClassLoader(new FilteredClassLoader(HttpResources.class))
			.run((context) -> assertThat(context).doesNotHaveBean(EventLoopWatch.class));
	}

	@Test
	void isNotAppliedToAServletApplication() {
		new WebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(SafeDefaultsAutoConfiguration.class,
					StuckRequestsReactiveAutoConfiguration.class))
			.run((context) -> assertThat(context).doesNotHaveBean(EventLoopWatch.class)
				.doesNotHaveBean(ReactiveStuckRequestsFeatureStatus.class));
	}

}
