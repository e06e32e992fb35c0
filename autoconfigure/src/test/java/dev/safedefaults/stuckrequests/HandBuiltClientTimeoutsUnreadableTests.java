package dev.safedefaults.stuckrequests;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.http.client.AbstractClientHttpRequestFactoryWrapper;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 44, point 4: why the starter names hand-built clients without a timeout while
 * they hang (the watch) and not at startup. docs/stuck-requests.md ("Client beans built
 * by hand") says that the Framework's public API lets one reach a {@code RestTemplate}'s
 * request factory but not read a timeout from it, and nothing at all of a
 * {@code RestClient}. These tests hold the Framework on the class path to that claim for
 * the simple and the JDK factories and {@code RestClient} (the Apache, Jetty and Reactor
 * factories' libraries and {@code WebClient} are not on this module's class path): when a
 * release adds a public timeout getter there, one fails, and the startup naming the issue
 * asks for can be built on it.
 */
class HandBuiltClientTimeoutsUnreadableTests {

	@Test
	void aRestTemplatesOwnFactoryIsReachableThroughPublicApiEvenBehindItsInterceptors() {
		SimpleClientHttpRequestFactory own = new SimpleClientHttpRequestFactory();
		RestTemplate template = new RestTemplate(own);
		ClientHttpRequestInterceptor passThrough = (request, body, execution) -> execution.execute(request, body);
		template.setInterceptors(List.of(passThrough));
		ClientHttpRequestFactory reached = template.getRequestFactory();
		while (reached instanceof AbstractClientHttpRequestFactoryWrapper wrapper) {
			reached = wrapper.getDelegate();
		}
		assertThat(reached).isSameAs(own);
	}

	@Test
	void theSimpleAndTheJdkRequestFactoriesTakeATimeoutButNeverGiveOneBack() {
		for (Class<?> factory : List.of(SimpleClientHttpRequestFactory.class, JdkClientHttpRequestFactory.class)) {
			assertThat(publicMethodsNamedLike(factory, "Timeout")).as("%s's public timeout methods", factory.getName())
				.isNotEmpty()
				.allSatisfy((method) -> assertThat(method.getParameterCount())
					.as("%s: a getter would let the starter name a client without a read timeout at startup "
							+ "(issue 44, point 4; docs/stuck-requests.md)", method)
					.isEqualTo(1));
		}
	}

	@Test
	void aRestClientGivesBackNothingButABuilderThatGivesBackNothing() {
		RestClient client = RestClient.builder().requestFactory(new SimpleClientHttpRequestFactory()).build();
		assertThat(publicGetters(RestClient.class)).as("what a RestClient gives back without a request")
			.isNotEmpty()
			.allSatisfy((method) -> assertThat(method.getReturnType()).isEqualTo(RestClient.Builder.class));
		assertThat(publicGetters(RestClient.Builder.class)).as("what its builder gives back")
			.isNotEmpty()
			.allSatisfy(
					(method) -> assertThat(method.getReturnType()).isIn(RestClient.class, RestClient.Builder.class));
		assertThat(client.mutate()).isInstanceOf(RestClient.Builder.class);
	}

	private static List<Method> publicMethodsNamedLike(Class<?> type, String part) {
		return Arrays.stream(type.getMethods())
			.filter((method) -> method.getDeclaringClass() == type && method.getName().contains(part))
			.toList();
	}

	/**
	 * Public methods without parameters declared on the type itself, other than the
	 * request starters ({@code get()}, {@code post()}...), which return a request spec.
	 */
	private static List<Method> publicGetters(Class<?> type) {
		return Arrays.stream(type.getMethods())
			.filter((method) -> method.getDeclaringClass() == type && method.getParameterCount() == 0
					&& !Modifier.isStatic(method.getModifiers())
					&& !method.getReturnType().getName().startsWith(RestClient.class.getName() + "$Request")
					&& !method.getReturnType().getName().startsWith(RestClient.class.getName() + "$Uri"))
			.toList();
	}

}
