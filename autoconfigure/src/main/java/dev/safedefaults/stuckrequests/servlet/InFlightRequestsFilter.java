package dev.safedefaults.stuckrequests.servlet;

import java.io.IOException;

import dev.safedefaults.stuckrequests.InFlightRequest;
import dev.safedefaults.stuckrequests.InFlightRequests;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;

/**
 * Records each servlet request's thread, start and method for the watch, on the request's
 * own thread, and nothing else: no stack is read on this path.
 */
final class InFlightRequestsFilter implements Filter {

	private final InFlightRequests requests;

	InFlightRequestsFilter(InFlightRequests requests) {
		this.requests = requests;
	}

	@Override
	public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
			throws IOException, ServletException {
		InFlightRequest inFlight = this.requests
			.began((request instanceof HttpServletRequest http) ? http.getMethod() : null);
		try {
			chain.doFilter(request, response);
		}
		finally {
			if (inFlight != null) {
				this.requests.ended(inFlight);
			}
		}
	}

}
