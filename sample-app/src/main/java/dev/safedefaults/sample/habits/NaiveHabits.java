package dev.safedefaults.sample.habits;

import java.lang.reflect.Field;

import dev.safedefaults.sample.orders.OrderView;

import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;

/**
 * The incidents' habits (profile {@code naive}): exceptions used for control flow
 * (incident 3: a field looked up with {@code getDeclaredField} in a try/catch walking up
 * the class hierarchy, a number parsed in a try/catch) and a caught exception printed to
 * {@code System.err} (incident 8).
 */
@Component
@Profile("naive")
class NaiveHabits implements LegacyHabits {

	@Override
	public void beforeRequest(long orderId, String channel) {
		Field tenant = findField(OrderView.class, "tenantId");
		long priority = parseLongOrDefault(channel, 0);
		if (tenant == null && priority == 0) {
			try {
				Class.forName("dev.safedefaults.sample.habits.TenantAware");
			}
			catch (ClassNotFoundException ex) {
				ex.printStackTrace();
			}
		}
	}

	private static Field findField(Class<?> type, String name) {
		for (Class<?> current = type; current != null; current = current.getSuperclass()) {
			try {
				return current.getDeclaredField(name);
			}
			catch (NoSuchFieldException ex) {
				// try the superclass
			}
		}
		return null;
	}

	private static long parseLongOrDefault(String text, long fallback) {
		try {
			return Long.parseLong(text);
		}
		catch (NumberFormatException ex) {
			return fallback;
		}
	}

}
