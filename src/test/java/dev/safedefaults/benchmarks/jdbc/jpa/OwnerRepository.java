package dev.safedefaults.benchmarks.jdbc.jpa;

import java.util.List;

import org.springframework.data.jpa.repository.JpaRepository;

/**
 * Spring Data JPA: {@code findById} is a read-only transaction of its own; the declared
 * query {@code findByName} runs in no transaction unless its caller has one.
 */
public interface OwnerRepository extends JpaRepository<Owner, Long> {

	List<Owner> findByName(String name);

}
