package dev.safedefaults.benchmarks.jdbc.jpa;

import org.springframework.data.jpa.repository.JpaRepository;

/**
 * Spring Data JPA: {@code findById} is a read-only transaction of its own.
 */
public interface OwnerRepository extends JpaRepository<Owner, Long> {

}
