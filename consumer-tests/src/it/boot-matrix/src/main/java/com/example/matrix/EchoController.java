package com.example.matrix;

import java.util.Map;

import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** What every client calls: a JSON object in, the same object out. */
@RestController
class EchoController {

	@PostMapping("/echo")
	Map<String, String> echo(@RequestBody Map<String, String> body) {
		return body;
	}

}
