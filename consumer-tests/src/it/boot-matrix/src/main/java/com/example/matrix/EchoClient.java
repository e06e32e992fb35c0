package com.example.matrix;

import java.util.Map;

import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;

@FeignClient(name = "echo", url = "${echo.url}")
public interface EchoClient {

	@PostMapping("/echo")
	Map<String, String> echo(@RequestBody Map<String, String> body);

}
