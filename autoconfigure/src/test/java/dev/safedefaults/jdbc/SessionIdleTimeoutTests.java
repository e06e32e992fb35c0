package dev.safedefaults.jdbc;

import java.util.List;
import java.util.Map;

import dev.safedefaults.jdbc.mysql.MySqlWaitTimeout;
import dev.safedefaults.jdbc.postgresql.PostgreSqlIdleSessionTimeout;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Each driver's part of {@link MaxLifetimeCheck} says the check's findings in its own
 * words (its server's setting), under the check's ids, which a user silences and reads.
 */
class SessionIdleTimeoutTests {

	@Test
	void everyListedDriverSaysTheChecksThreeFindingsUnderTheirIdsNamingItsServersSetting() {
		Map<Class<?>, String> settings = Map.of(MySqlWaitTimeout.class, "wait_timeout",
				PostgreSqlIdleSessionTimeout.class, "idle_session_timeout");
		List<SessionIdleTimeout> drivers = SessionIdleTimeout.listed();
		assertThat(drivers).extracting(Object::getClass)
			.containsExactlyInAnyOrder(MySqlWaitTimeout.class, PostgreSqlIdleSessionTimeout.class);
		assertThat(drivers).allSatisfy((driver) -> {
			SessionIdleTimeout.Findings findings = driver.findings();
			assertThat(findings.tooLong().id()).isEqualTo("jdbc.max-lifetime");
			assertThat(findings.belowHikarisMinimum().id()).isEqualTo("jdbc.max-lifetime");
			assertThat(findings.unchecked().id()).isEqualTo("jdbc.max-lifetime-unchecked");
			String setting = settings.get(driver.getClass());
			assertThat(findings.tooLong().message()).contains(setting);
			assertThat(findings.unchecked().message()).contains(setting);
		});
	}

	@Test
	void aDriverCannotSayTheChecksFindingsUnderAnotherId() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new SessionIdleTimeout.Findings(JdbcFindings.MAX_LIFETIME_UNCHECKED,
					JdbcFindings.MAX_LIFETIME, JdbcFindings.MAX_LIFETIME_UNCHECKED))
			.withMessage("Expected a variant of jdbc.max-lifetime but got jdbc.max-lifetime-unchecked");
	}

}
