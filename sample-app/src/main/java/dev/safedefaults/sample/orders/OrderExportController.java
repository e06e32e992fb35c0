package dev.safedefaults.sample.orders;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.http.HttpServletResponse;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/orders/export?megabytes=N}: a large download, as services serve exports
 * and reports from a request thread: {@code N} MB (1 to {@value #MAX_MEGABYTES}) of CSV
 * written through the response's {@code OutputStream} in chunks of 64 KB. The request
 * thread writes as fast as the client reads, so a slow client keeps it for as long as it
 * takes.
 */
@RestController
class OrderExportController {

	static final int MAX_MEGABYTES = 64;

	private static final int CHUNK = 64 * 1024;

	private static final byte[] ROWS = rows();

	@GetMapping("/api/orders/export")
	void export(@RequestParam(name = "megabytes", defaultValue = "1") int megabytes, HttpServletResponse response)
			throws IOException {
		if (megabytes < 1 || megabytes > MAX_MEGABYTES) {
			response.sendError(HttpServletResponse.SC_BAD_REQUEST, "megabytes must be between 1 and " + MAX_MEGABYTES);
			return;
		}
		long length = (long) megabytes * 1024 * 1024;
		response.setContentType("text/csv");
		response.setContentLengthLong(length);
		OutputStream body = response.getOutputStream();
		for (long written = 0; written < length; written += CHUNK) {
			body.write(ROWS, 0, (int) Math.min(CHUNK, length - written));
		}
		body.flush();
	}

	/** 64 KB of CSV rows, padded with blank lines to the chunk's size. */
	private static byte[] rows() {
		StringBuilder rows = new StringBuilder(CHUNK);
		for (int i = 0; rows.length() < CHUNK - 64; i++) {
			rows.append(i).append(",customer-").append(i % 97).append(",").append(10 + i % 90).append(".00,NEW\n");
		}
		while (rows.length() < CHUNK) {
			rows.append('\n');
		}
		return rows.toString().getBytes(StandardCharsets.US_ASCII);
	}

}
