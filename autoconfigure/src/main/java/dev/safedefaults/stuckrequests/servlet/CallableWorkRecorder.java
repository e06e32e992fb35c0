package dev.safedefaults.stuckrequests.servlet;

import java.util.concurrent.Callable;

import dev.safedefaults.stuckrequests.InFlightRequests;
import org.jspecify.annotations.Nullable;

import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.context.request.async.CallableProcessingInterceptor;
import org.springframework.web.servlet.config.annotation.AsyncSupportConfigurer;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Notes which thread of Spring MVC's async executor works for an asynchronous request
 * while a {@code Callable} its handler returned runs (a {@code StreamingResponseBody}
 * runs as one too): the watch then examines that thread as it would the request's own.
 * The request is found on its own thread before the {@code Callable} is submitted, and
 * known on the executor's thread by that {@code Callable}: the servlet request, which the
 * container may recycle once a timeout ended it, is never read there. Registered through
 * Spring MVC's own extension point: every {@code WebMvcConfigurer} bean is applied.
 */
final class CallableWorkRecorder implements CallableProcessingInterceptor, WebMvcConfigurer {

	private final InFlightRequests requests;

	CallableWorkRecorder(InFlightRequests requests) {
		this.requests = requests;
	}

	@Override
	public void configureAsyncSupport(AsyncSupportConfigurer configurer) {
		configurer.registerCallableInterceptors(this);
	}

	@Override
	public <T> void beforeConcurrentHandling(NativeWebRequest request, Callable<T> task) {
		this.requests.callableQueued(task);
	}

	@Override
	public <T> void preProcess(NativeWebRequest request, Callable<T> task) {
		this.requests.callableStarted(task);
	}

	@Override
	public <T> void postProcess(NativeWebRequest request, Callable<T> task, @Nullable Object concurrentResult) {
		this.requests.callableReturned();
	}

}
