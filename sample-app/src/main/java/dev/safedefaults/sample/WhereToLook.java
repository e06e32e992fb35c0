package dev.safedefaults.sample;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Once started, says where to look.
 */
@Component
class WhereToLook {

	private static final Log logger = LogFactory.getLog(WhereToLook.class);

	@EventListener
	void ready(ApplicationReadyEvent event) {
		if (event.getApplicationContext() instanceof WebServerApplicationContext web && web.getWebServer() != null) {
			String base = "http://localhost:" + web.getWebServer().getPort();
			logger
				.info("Sample app ready. Findings: " + base + "/actuator/health/safe-defaults ; features and findings: "
						+ base + "/actuator/safedefaults ; an order: " + base + "/api/orders/1");
		}
	}

}
