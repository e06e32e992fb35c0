package com.example.consumer;

import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.service.annotation.GetExchange;

/** An HTTP service client of the group "greetings", calling this application on loopback. */
public interface GreetingService {

	@GetExchange("/greetings/{name}")
	Greeting greeting(@PathVariable String name);

	record Greeting(String firstName) {
	}

}
