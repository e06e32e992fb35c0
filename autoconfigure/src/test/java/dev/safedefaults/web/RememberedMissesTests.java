package dev.safedefaults.web;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The remembered misses are bounded in count and in the length of each path: a path
 * longer than the limit is never kept, so no request can make an entry hold more than a
 * few kilobytes.
 */
class RememberedMissesTests {

	@Test
	void aPathUpToTheLimitIsRemembered() {
		RememberedMisses misses = new RememberedMisses(10);
		String path = "owners/" + "x".repeat(RememberedMisses.MAX_PATH_LENGTH - 7);
		assertThat(path).hasSize(RememberedMisses.MAX_PATH_LENGTH);
		assertThat(misses.remember(0, path)).isTrue();
		assertThat(misses.isRemembered(0, path)).isTrue();
		assertThat(misses.isRemembered(1, path)).as("another handler's").isFalse();
	}

	@Test
	void aPathLongerThanTheLimitIsNotRemembered() {
		RememberedMisses misses = new RememberedMisses(10);
		String path = "owners/" + "x".repeat(RememberedMisses.MAX_PATH_LENGTH - 6);
		assertThat(misses.remember(0, path)).isFalse();
		assertThat(misses.isRemembered(0, path)).isFalse();
		assertThat(misses.caffeineCache().estimatedSize()).isZero();
	}

	@Test
	void theCountIsBounded() {
		RememberedMisses misses = new RememberedMisses(2);
		for (int i = 0; i < 50; i++) {
			misses.remember(0, "owners/" + i);
		}
		misses.caffeineCache().cleanUp();
		assertThat(misses.caffeineCache().estimatedSize()).isLessThanOrEqualTo(2);
	}

	@Test
	void aSkipIsSeenAtOnceByItsThreadAndByAnotherThreadOnItsNextLookupPath() throws Exception {
		RememberedMisses misses = new RememberedMisses(10);
		assertThat(misses.isSkipped(0, "/**", "/owners/1")).isFalse();
		Thread other = new Thread(() -> misses.skip(0, "/**", "/owners/1"));
		other.start();
		other.join(10_000);
		// This thread may keep its last answer for the same path (the pattern is then
		// matched as if it were not remembered: the same answer, only slower); its next
		// lookup path reads the cache again.
		assertThat(misses.isSkipped(0, "/**", "/owners/2")).isFalse();
		assertThat(misses.isSkipped(0, "/**", "/owners/1")).as("read again from the cache").isTrue();
		misses.skip(0, "/static/**", "/owners/1");
		assertThat(misses.isSkipped(0, "/static/**", "/owners/1")).as("its own skip, at once").isTrue();
		assertThat(misses.isSkipped(0, "/**", "/owners/1")).isTrue();
	}

	@Test
	void aPathLongerThanTheLimitIsNeitherSkippedNorKept() {
		RememberedMisses misses = new RememberedMisses(10);
		String path = "owners/" + "x".repeat(RememberedMisses.MAX_PATH_LENGTH - 6);
		misses.skip(0, "/**", path);
		assertThat(misses.isSkipped(0, "/**", path)).isFalse();
		assertThat(misses.caffeineCache().estimatedSize()).isZero();
	}

}
