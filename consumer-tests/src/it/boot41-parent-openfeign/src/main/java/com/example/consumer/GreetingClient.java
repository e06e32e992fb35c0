package com.example.consumer;

import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.GetMapping;

@FeignClient(name = "greeting", url = "${greeting.url}")
public interface GreetingClient {

	@GetMapping("/greeting")
	String greeting();

}
