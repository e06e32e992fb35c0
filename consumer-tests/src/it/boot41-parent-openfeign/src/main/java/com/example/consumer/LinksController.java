package com.example.consumer;

import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;

/**
 * A Thymeleaf page with a webjar and links to other pages: with webjars-locator-lite Boot
 * switches the resource chain on, and every link the page renders is looked up as a
 * static resource first.
 */
@Controller
class LinksController {

	@GetMapping("/links")
	String links() {
		return "links";
	}

}
