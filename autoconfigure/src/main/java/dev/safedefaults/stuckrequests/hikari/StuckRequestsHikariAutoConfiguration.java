package dev.safedefaults.stuckrequests.hikari;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.stuckrequests.JdbcPools;
import dev.safedefaults.stuckrequests.StuckRequestsAutoConfiguration;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.context.annotation.Bean;

/**
 * The stuck-request watch on Hikari: the {@link JdbcPools} the watch asks when a request
 * waits on a pool or reads through one (the watch asks for it as it is created, so the
 * order of the two auto-configurations does not matter).
 */
@AutoConfiguration(before = StuckRequestsAutoConfiguration.class)
@ConditionalOnSafeDefaultsEnabled
@ConditionalOnWebApplication(type = Type.SERVLET)
@ConditionalOnClass(HikariDataSource.class)
@ConditionalOnBooleanProperty(name = "safe-defaults.stuck-requests.enabled", matchIfMissing = true)
public final class StuckRequestsHikariAutoConfiguration {

	@Bean
	HikariJdbcPools safeDefaultsStuckRequestsHikariPools(ListableBeanFactory beanFactory) {
		return new HikariJdbcPools(beanFactory);
	}

}
