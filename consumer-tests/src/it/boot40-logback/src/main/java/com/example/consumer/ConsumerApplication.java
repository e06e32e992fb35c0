package com.example.consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@SpringBootApplication
@RestController
public class ConsumerApplication {

	private static final Logger logger = LoggerFactory.getLogger(ConsumerApplication.class);

	public static void main(String[] args) {
		SpringApplication.run(ConsumerApplication.class, args);
	}

	/**
	 * Logs {@code count} INFO lines and one WARN line, the way a request handler logs.
	 */
	@GetMapping("/log")
	String log(@RequestParam(defaultValue = "1") int count) {
		for (int i = 0; i < count; i++) {
			logger.info("order {} \"accepted\"", i);
		}
		logger.warn("logged {} lines", count);
		return "logged " + count;
	}

	/**
	 * Logs {@code count} INFO lines and nothing else, the way most requests log.
	 */
	@GetMapping("/info")
	String info(@RequestParam(defaultValue = "1") int count) {
		for (int i = 0; i < count; i++) {
			logger.info("order {} \"accepted\"", i);
		}
		return "logged " + count;
	}

	/**
	 * Logs one ERROR line, the way a failed request is logged.
	 */
	@GetMapping("/fail")
	String fail(@RequestParam int order) {
		logger.error("order {} failed", order);
		return "failed " + order;
	}

}
