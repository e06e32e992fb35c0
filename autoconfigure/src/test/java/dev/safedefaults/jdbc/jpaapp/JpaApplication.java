package dev.safedefaults.jdbc.jpaapp;

import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A Spring Data JPA + Hibernate application on a Hikari pool: Boot's auto-configuration
 * finds its entity and repository in this package.
 */
@Configuration(proxyBeanMethods = false)
@AutoConfigurationPackage
public class JpaApplication {

	/** Creates the table and two owners. */
	public static final String[] SCHEMA = { "CREATE TABLE owners (id BIGINT PRIMARY KEY, name VARCHAR(64) NOT NULL)",
			"INSERT INTO owners VALUES (1, 'Ada'), (2, 'Grace')" };

	@Bean
	OwnerService ownerService(OwnerRepository owners) {
		return new OwnerService(owners);
	}

	@Bean
	OwnerPages ownerPages(OwnerRepository owners) {
		return new OwnerPages(owners);
	}

}
