package com.example.consumer;

import com.example.consumer.GreetingService.Greeting;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/** Serves the greetings on loopback, and calls them through the HTTP service group. */
@RestController
class GreetingController {

	private final GreetingService greetings;

	GreetingController(GreetingService greetings) {
		this.greetings = greetings;
	}

	@GetMapping("/greetings/{name}")
	Greeting greeting(@PathVariable String name) {
		return new Greeting("Hello " + name);
	}

	@GetMapping("/call-greetings/{name}")
	String callGreetings(@PathVariable String name) {
		return this.greetings.greeting(name).firstName();
	}

}
