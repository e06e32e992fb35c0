package dev.safedefaults.jdbc.jpaapp;

import java.util.List;

import org.springframework.data.jpa.repository.JpaRepository;

/**
 * A Spring Data JPA repository: {@code findById} runs in a read-only transaction of its
 * own; the derived query {@code findByName}, declared here, runs in none (Spring Data
 * applies its default transactions to the methods it implements, not to declared query
 * methods).
 */
public interface OwnerRepository extends JpaRepository<Owner, Long> {

	List<Owner> findByName(String name);

}
