package dev.safedefaults.benchmarks.resourcechain;

import java.util.stream.IntStream;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;

/**
 * The resource chain benchmark's application (issue 35): Thymeleaf pages with many links
 * to other pages and a few webjars, as a typical server-rendered application has. With
 * webjars-locator-lite on the class path Boot switches the resource chain on, and with it
 * {@code ResourceUrlEncodingFilter}: every link a page renders is looked up as a static
 * resource first.
 */
@SpringBootApplication
public class ResourceChainApplication {

	public static void main(String[] args) {
		SpringApplication.run(ResourceChainApplication.class, args);
	}

	/** The pages. */
	@Controller
	static class Pages {

		/**
		 * A list page: {@code count} links to owners' pages (each its own path, as
		 * {@code th:href="@{/owners/{id}(id=...)}"} renders them), each with an edit link
		 * half of the time, plus the layout's webjars and stylesheet.
		 * @param count the number of owner links, 1 to 500
		 * @param model the page's model
		 * @return the template
		 */
		@GetMapping("/links/{count}")
		String links(@PathVariable("count") int count, Model model) {
			model.addAttribute("ids", IntStream.rangeClosed(1, Math.max(1, Math.min(count, 500))).boxed().toList());
			return "links";
		}

		/**
		 * An owner's page.
		 * @param id the owner
		 * @param model the page's model
		 * @return the template
		 */
		@GetMapping("/owners/{id}")
		String owner(@PathVariable("id") int id, Model model) {
			model.addAttribute("ids", java.util.List.of(id));
			return "links";
		}

	}

}
