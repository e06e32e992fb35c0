package dev.safedefaults.benchmarks.jdbc.jpa;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.jdbc.JdbcDefaultsAutoConfiguration;
import dev.safedefaults.jdbc.mysql.MySqlProtocolDefaultsAutoConfiguration;
import dev.safedefaults.jdbc.postgresql.PostgreSqlChecksAutoConfiguration;

import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.data.jpa.autoconfigure.DataJpaRepositoriesAutoConfiguration;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A Spring Data JPA + Hibernate application with the starter's JDBC defaults: only the
 * auto-configurations such an application needs, so that the benchmark measures them.
 */
@Configuration(proxyBeanMethods = false)
@AutoConfigurationPackage
@ImportAutoConfiguration({ DataSourceAutoConfiguration.class, HibernateJpaAutoConfiguration.class,
		DataJpaRepositoriesAutoConfiguration.class, TransactionAutoConfiguration.class,
		SafeDefaultsAutoConfiguration.class, JdbcDefaultsAutoConfiguration.class,
		MySqlProtocolDefaultsAutoConfiguration.class, PostgreSqlChecksAutoConfiguration.class })
public class JpaBenchmarkApplication {

	@Bean
	Owners owners(OwnerRepository repository) {
		return new Owners(repository);
	}

	@Bean
	Pages pages(OwnerRepository repository) {
		return new Pages(repository);
	}

}
