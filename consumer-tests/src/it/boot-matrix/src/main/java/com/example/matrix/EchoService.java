package com.example.matrix;

import java.util.Map;

import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.service.annotation.PostExchange;

/** An HTTP service client of the group "echo". */
public interface EchoService {

	@PostExchange("/echo")
	Map<String, String> echo(@RequestBody Map<String, String> body);

}
