package com.example.consumer;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A handler that blocks the event loop it runs on, as a JDBC query, a RestClient call or
 * a lock in a handler would: WebFlux runs a handler that returns a plain value on the
 * event loop that read the request.
 */
@RestController
class BlockingController {

	@GetMapping("/block")
	String block(@RequestParam long millis) throws InterruptedException {
		Thread.sleep(millis);
		return "slept " + millis + " ms";
	}

	@GetMapping("/hello")
	String hello() {
		return "hello";
	}

}
