package dev.safedefaults.jdbc.jpaapp;

import org.springframework.data.jpa.repository.JpaRepository;

/**
 * A Spring Data JPA repository: {@code findById} runs in a read-only transaction of its
 * own.
 */
public interface OwnerRepository extends JpaRepository<Owner, Long> {

}
