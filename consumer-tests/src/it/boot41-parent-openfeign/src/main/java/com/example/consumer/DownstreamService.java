package com.example.consumer;

import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.service.annotation.GetExchange;

/**
 * An HTTP service client of the group "downstream", on Boot's defaults: its base URL is
 * {@code downstream.url}, no timeout of the application's own.
 */
public interface DownstreamService {

	@GetExchange("/prices/{id}")
	String price(@PathVariable long id);

}
