package dev.safedefaults.benchmarks.pagemix;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.persistence.CascadeType;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OrderBy;
import jakarta.persistence.Table;

import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Sort;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.jpa.repository.config.EnableJpaRepositories;
import org.springframework.stereotype.Controller;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * The cost benchmark's JPA and Thymeleaf application (issue 32), shaped like a small
 * server-rendered service: owners with pets and visits, and vets, in the machine's
 * MariaDB (Connector/J, Spring Data JPA, Hibernate, Boot's open-in-view), six pages, no
 * logging per request and no webjars (the resource chain stays off: issue 35 measures
 * that). The tables ({@code pagemix_*}) are created and filled at the first start.
 */
@SpringBootApplication
@EnableJpaRepositories(considerNestedRepositories = true)
public class PageMixApplication {

	static final int OWNERS = 60;

	static final String[] LAST_NAMES = { "Davis", "Franklin", "Black", "Escobito", "Schroeder", "Estaban", "Coleman",
			"McTavish", "Rodriquez", "Douglas" };

	public static void main(String[] args) {
		SpringApplication.run(PageMixApplication.class, args);
	}

	@Bean
	ApplicationRunner fillOnce(OwnerRepository owners, VetRepository vets) {
		return (args) -> {
			if (owners.count() > 0) {
				return;
			}
			List<Owner> all = new ArrayList<>();
			for (int i = 0; i < OWNERS; i++) {
				Owner owner = new Owner();
				owner.firstName = "Owner" + i;
				owner.lastName = LAST_NAMES[i % LAST_NAMES.length];
				owner.address = i + " Main Street";
				owner.city = "Madison";
				owner.telephone = "6085550" + (100 + i);
				for (int p = 0; p < 2; p++) {
					Pet pet = new Pet();
					pet.name = "Pet" + i + "-" + p;
					pet.type = (p == 0) ? "cat" : "dog";
					pet.birthDate = LocalDate.of(2015 + (i % 8), 1 + (i % 12), 1 + p);
					pet.owner = owner;
					for (int v = 0; v < 2; v++) {
						Visit visit = new Visit();
						visit.date = LocalDate.of(2024, 1 + v, 1 + (i % 28));
						visit.description = "Check-up " + v;
						visit.pet = pet;
						pet.visits.add(visit);
					}
					owner.pets.add(pet);
				}
				all.add(owner);
			}
			owners.saveAll(all);
			List<Vet> team = new ArrayList<>();
			for (int i = 0; i < 12; i++) {
				Vet vet = new Vet();
				vet.firstName = "Vet" + i;
				vet.lastName = LAST_NAMES[(i * 3) % LAST_NAMES.length];
				vet.specialty = (i % 3 == 0) ? "surgery" : (i % 3 == 1) ? "dentistry" : "radiology";
				team.add(vet);
			}
			vets.saveAll(team);
		};
	}

	/** An owner. */
	@Entity
	@Table(name = "pagemix_owner")
	public static class Owner {

		@Id
		@GeneratedValue(strategy = GenerationType.IDENTITY)
		public Long id;

		public String firstName;

		public String lastName;

		public String address;

		public String city;

		public String telephone;

		@OneToMany(mappedBy = "owner", cascade = CascadeType.ALL, fetch = FetchType.LAZY)
		@OrderBy("name")
		public List<Pet> pets = new ArrayList<>();

	}

	/** A pet. */
	@Entity
	@Table(name = "pagemix_pet")
	public static class Pet {

		@Id
		@GeneratedValue(strategy = GenerationType.IDENTITY)
		public Long id;

		public String name;

		public String type;

		public LocalDate birthDate;

		@ManyToOne(fetch = FetchType.LAZY)
		@JoinColumn(name = "owner_id")
		public Owner owner;

		@OneToMany(mappedBy = "pet", cascade = CascadeType.ALL, fetch = FetchType.LAZY)
		@OrderBy("date")
		public List<Visit> visits = new ArrayList<>();

	}

	/** A visit. */
	@Entity
	@Table(name = "pagemix_visit")
	public static class Visit {

		@Id
		@GeneratedValue(strategy = GenerationType.IDENTITY)
		public Long id;

		public LocalDate date;

		public String description;

		@ManyToOne(fetch = FetchType.LAZY)
		@JoinColumn(name = "pet_id")
		public Pet pet;

	}

	/** A vet. */
	@Entity
	@Table(name = "pagemix_vet")
	public static class Vet {

		@Id
		@GeneratedValue(strategy = GenerationType.IDENTITY)
		public Long id;

		public String firstName;

		public String lastName;

		public String specialty;

	}

	/** The owners. */
	public interface OwnerRepository extends JpaRepository<Owner, Long> {

		@Query("select distinct o from PageMixApplication$Owner o left join fetch o.pets where o.lastName like :prefix% order by o.id")
		List<Owner> findByLastNamePrefix(String prefix);

	}

	/** The vets. */
	public interface VetRepository extends JpaRepository<Vet, Long> {

	}

	/** The one page that writes: a transaction that reads an owner and changes it. */
	@Service
	public static class Telephones {

		private final OwnerRepository owners;

		private final AtomicLong next = new AtomicLong();

		Telephones(OwnerRepository owners) {
			this.owners = owners;
		}

		@Transactional
		public Owner renumber(long id) {
			Owner owner = this.owners.findById(id).orElseThrow();
			owner.telephone = "6085551" + (100 + (this.next.incrementAndGet() % 900));
			return owner;
		}

	}

	/** The six pages. */
	@Controller
	static class Pages {

		private final OwnerRepository owners;

		private final VetRepository vets;

		private final Telephones telephones;

		Pages(OwnerRepository owners, VetRepository vets, Telephones telephones) {
			this.owners = owners;
			this.vets = vets;
			this.telephones = telephones;
		}

		@GetMapping("/")
		String welcome() {
			return "welcome";
		}

		@GetMapping("/owners")
		String find(@RequestParam(name = "lastName", defaultValue = "") String lastName, Model model) {
			model.addAttribute("owners", this.owners.findByLastNamePrefix(lastName));
			return "owners";
		}

		@GetMapping("/owners/{id}")
		String owner(@PathVariable("id") long id, Model model) {
			model.addAttribute("owner", this.owners.findById(id).orElseThrow());
			return "owner";
		}

		@GetMapping("/owners/{id}/edit")
		String edit(@PathVariable("id") long id, Model model) {
			model.addAttribute("owner", this.owners.findById(id).orElseThrow());
			return "ownerForm";
		}

		@GetMapping("/owners/{id}/renumber")
		String renumber(@PathVariable("id") long id, Model model) {
			model.addAttribute("owner", this.telephones.renumber(id));
			return "owner";
		}

		@GetMapping("/vets")
		String vets(@RequestParam(name = "page", defaultValue = "0") int page, Model model) {
			model.addAttribute("vets",
					this.vets.findAll(PageRequest.of(Math.max(0, Math.min(page, 10)), 5, Sort.by("lastName"))));
			return "vets";
		}

	}

}
