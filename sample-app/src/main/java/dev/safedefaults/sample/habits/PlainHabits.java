package dev.safedefaults.sample.habits;

import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;

/**
 * Nothing expensive: the default and the tuned profiles.
 */
@Component
@Profile("!naive")
class PlainHabits implements LegacyHabits {

	@Override
	public void beforeRequest(long orderId, String channel) {
	}

}
