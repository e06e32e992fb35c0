package dev.safedefaults.stuckrequests;

import java.io.IOException;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;

/**
 * Records each servlet request's thread and start for the watch, and nothing else: no
 * stack is read on this path.
 */
final class InFlightRequestsFilter implements Filter {

	/** A longer path is cut: the endpoint only helps a reader find the request. */
	private static final int MAX_PATH = 120;

	private final InFlightRequests requests;

	InFlightRequestsFilter(InFlightRequests requests) {
		this.requests = requests;
	}

	@Override
	public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
			throws IOException, ServletException {
		InFlightRequest inFlight = this.requests.began(endpoint(request));
		try {
			chain.doFilter(request, response);
		}
		finally {
			if (inFlight != null) {
				this.requests.ended(inFlight);
			}
		}
	}

	private static String endpoint(ServletRequest request) {
		if (!(request instanceof HttpServletRequest http)) {
			return "";
		}
		String path = http.getRequestURI();
		if (path.length() > MAX_PATH) {
			path = path.substring(0, MAX_PATH) + "…";
		}
		return http.getMethod() + " " + path;
	}

}
