package dev.safedefaults.jdbc.mysql;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SessionStateSqlTests {

	@Test
	void findsChangesToStateTheDriverTracksLocally() {
		assertThat(SessionStateSql.findChange("SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED"))
			.contains("SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED");
		assertThat(SessionStateSql.findChange("set @@session.transaction_isolation = 'READ-COMMITTED'")).isPresent();
		assertThat(SessionStateSql.findChange("SET tx_read_only = 1")).isPresent();
		assertThat(SessionStateSql.findChange("set autocommit=0")).isPresent();
		assertThat(SessionStateSql.findChange("SET NAMES utf8mb4; USE reports")).contains("USE reports");
	}

	@Test
	void ignoresChangesTheDriverDoesNotTrack() {
		assertThat(SessionStateSql.findChange("SET NAMES utf8mb4")).isEmpty();
		assertThat(SessionStateSql.findChange("SET time_zone = '+00:00'")).isEmpty();
		assertThat(SessionStateSql.findChange("SET SESSION sql_mode = 'STRICT_ALL_TABLES'")).isEmpty();
		assertThat(SessionStateSql.findChange("SELECT 1")).isEmpty();
		assertThat(SessionStateSql.findChange(null)).isEmpty();
	}

}
