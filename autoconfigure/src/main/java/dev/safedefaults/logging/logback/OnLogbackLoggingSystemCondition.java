package dev.safedefaults.logging.logback;

import dev.safedefaults.logging.LogbackLoggingSystemChoice;

import org.springframework.boot.autoconfigure.condition.ConditionMessage;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * The condition of {@link ConditionalOnLogbackLoggingSystem}, with the reason
 * {@link LogbackLoggingSystemChoice} gives in its outcome (the condition evaluation
 * report says why the Logback route is off).
 */
class OnLogbackLoggingSystemCondition extends SpringBootCondition {

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		ClassLoader classLoader = context.getClassLoader();
		ConditionMessage.Builder message = ConditionMessage.forCondition(ConditionalOnLogbackLoggingSystem.class);
		String whyNot = (classLoader != null) ? LogbackLoggingSystemChoice.whyNotRunning(classLoader)
				: "no class loader to look for Logback with";
		return (whyNot != null) ? ConditionOutcome.noMatch(message.because(whyNot))
				: ConditionOutcome.match(message.because("Logback is Boot's logging system and SLF4J's backend"));
	}

}
