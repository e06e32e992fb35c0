package dev.safedefaults.sample.orders;

import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/orders/{id}}: one UPDATE and one SELECT by primary key. The full
 * reference workload of the incidents' service (logging, configuration, Feign) grows here.
 */
@RestController
class OrderController {

	private final JdbcTemplate jdbc;

	OrderController(JdbcTemplate jdbc) {
		this.jdbc = jdbc;
	}

	@GetMapping("/api/orders/{id}")
	ResponseEntity<Order> order(@PathVariable long id) {
		this.jdbc.update("UPDATE orders SET views = views + 1 WHERE id = ?", id);
		return this.jdbc
			.query("SELECT id, customer, amount, status, views FROM orders WHERE id = ?",
					(rs, row) -> new Order(rs.getLong(1), rs.getString(2), rs.getBigDecimal(3), rs.getString(4),
							rs.getLong(5)),
					id)
			.stream()
			.findFirst()
			.map(ResponseEntity::ok)
			.orElseGet(() -> ResponseEntity.notFound().build());
	}

}
