package dev.safedefaults.stuckrequests.servlet;

import dev.safedefaults.stuckrequests.InFlightRequests;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.HandlerMapping;

/**
 * Notes the handler's pattern Spring MVC chose for a request ({@code GET /orders/{id}}),
 * on the request's own thread, once its handler is known: the watch, on its own thread,
 * must not read the servlet request, which the container recycles for another request
 * once this one ends. A map lookup per request; nothing when the request is not watched.
 */
final class EndpointRecorder implements HandlerInterceptor {

	private final InFlightRequests requests;

	EndpointRecorder(InFlightRequests requests) {
		this.requests = requests;
	}

	@Override
	public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
		if (request.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE) instanceof String pattern) {
			this.requests.handlerChosen(pattern);
		}
		return true;
	}

}
