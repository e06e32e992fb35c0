package dev.safedefaults.web;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.FileSystemResource;
import org.springframework.core.io.Resource;
import org.springframework.web.servlet.resource.PathResourceResolver;
import org.springframework.web.servlet.resource.ResourceHttpRequestHandler;
import org.springframework.web.servlet.resource.ResourceResolver;
import org.springframework.web.servlet.resource.ResourceResolverChain;
import org.springframework.web.servlet.resource.ResourceUrlProvider;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Framework's own {@link ResourceUrlProvider} and resource handlers, with the starter's
 * matcher: a link that no unchanging location holds reaches the handler's chain once, a
 * resource is still resolved through the chain on every lookup, and every answer is the
 * one the provider gives without the matcher.
 */
class MissSkippingPathMatcherTests {

	private static final List<String> LOOKUPS = List.of("/owners/1", "/css/site.css", "/webjars/x.js",
			"/webjars/css/site.css", "/owners/1", "/css/site.css?v=1", "/missing.css", "/owners/1", "/missing.css");

	@TempDir
	Path uploads;

	@Test
	void aLinkNoUnchangingLocationHoldsReachesTheChainOnce() {
		RememberedMisses misses = new RememberedMisses(100);
		AtomicInteger asked = new AtomicInteger();
		ResourceUrlProvider provider = provider(misses, asked, List.of(new ClassPathResource("resourcechain/static/")));
		assertThat(provider.getPathMatcher()).isInstanceOf(MissSkippingPathMatcher.class);
		assertThat(provider.getForLookupPath("/owners/1")).isNull();
		assertThat(asked).as("the first lookup walks the chain").hasValue(1);
		assertThat(provider.getForLookupPath("/owners/1")).isNull();
		assertThat(asked).as("the matcher learnt the miss from the remembering resolver: the chain is not built")
			.hasValue(1);
		MissSkippingPathMatcher matcher = (MissSkippingPathMatcher) provider.getPathMatcher();
		assertThat(matcher.remembersSkip("/**", "/owners/1")).isTrue();
		for (int i = 0; i < 5; i++) {
			assertThat(provider.getForLookupPath("/owners/1")).isNull();
		}
		assertThat(asked).hasValue(1);
		assertThat(matcher.remembersSkip("/static/**", "/owners/1")).as("a pattern it does not match").isTrue();
		provider.getForLookupPath("/owners/2");
		int chainWalks = asked.get();
		long reads = misses.caffeineCache().stats().requestCount();
		long hits = misses.caffeineCache().stats().hitCount();
		assertThat(provider.getForLookupPath("/owners/1")).isNull();
		assertThat(misses.caffeineCache().stats().requestCount())
			.as("one cache read per link, for its 3 patterns: the thread keeps its last lookup path")
			.isEqualTo(reads + 1);
		assertThat(misses.caffeineCache().stats().hitCount()).isEqualTo(hits + 1);
		assertThat(asked).hasValue(chainWalks);
	}

	@Test
	void aResourceIsResolvedThroughTheChainOnEveryLookup() {
		AtomicInteger asked = new AtomicInteger();
		ResourceUrlProvider provider = provider(new RememberedMisses(100), asked,
				List.of(new ClassPathResource("resourcechain/static/")));
		for (int i = 1; i <= 3; i++) {
			assertThat(provider.getForLookupPath("/css/site.css")).isEqualTo("/css/site.css");
			assertThat(asked).hasValue(i);
		}
	}

	@Test
	void everyAnswerIsTheProvidersOwn() {
		List<Resource> locations = List.of(new ClassPathResource("resourcechain/static/"));
		ResourceUrlProvider with = provider(new RememberedMisses(100), new AtomicInteger(), locations);
		ResourceUrlProvider without = provider(null, new AtomicInteger(), locations);
		List<@Nullable String> expected = new ArrayList<>();
		List<@Nullable String> actual = new ArrayList<>();
		for (int round = 0; round < 3; round++) {
			for (String lookup : LOOKUPS) {
				expected.add(without.getForLookupPath(lookup));
				actual.add(with.getForLookupPath(lookup));
			}
		}
		assertThat(actual).isEqualTo(expected).contains("/css/site.css", "/webjars/css/site.css").containsNull();
	}

	@Test
	void aMissLearntForOneProviderNeverChangesAnotherProvidersAnswer() {
		RememberedMisses misses = new RememberedMisses(100);
		ResourceUrlProvider boots = provider(misses, new AtomicInteger(),
				List.of(new ClassPathResource("resourcechain/static/")));
		// The application's own provider: the same pattern, its own location, which holds
		// the file; its handler is in no handler mapping, so its misses are not learnt.
		ResourceHttpRequestHandler own = handler(null, 0, List.of(new ClassPathResource("resourcechain/other/")),
				new AtomicInteger());
		ResourceUrlProvider applications = new ResourceUrlProvider();
		applications.setHandlerMap(Map.of("/**", own));
		applications.setPathMatcher(new MissSkippingPathMatcher(applications, misses));
		List<@Nullable String> answers = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			assertThat(boots.getForLookupPath("/only-other.css")).isNull();
			answers.add(applications.getForLookupPath("/only-other.css"));
		}
		assertThat(answers).containsOnly("/only-other.css").hasSize(4);
		assertThat(((MissSkippingPathMatcher) boots.getPathMatcher()).remembersSkip("/**", "/only-other.css")).isTrue();
		assertThat(((MissSkippingPathMatcher) applications.getPathMatcher()).remembersSkip("/**", "/only-other.css"))
			.isFalse();
	}

	@Test
	void aHandlerWithALocationThatCanChangeIsAskedOnEveryLookup() throws Exception {
		RememberedMisses misses = new RememberedMisses(100);
		AtomicInteger asked = new AtomicInteger();
		ResourceUrlProvider provider = provider(misses, asked, List.of(new ClassPathResource("resourcechain/static/"),
				new FileSystemResource(this.uploads.toString() + "/")));
		for (int i = 0; i < 3; i++) {
			assertThat(provider.getForLookupPath("/added.txt")).isNull();
		}
		assertThat(((MissSkippingPathMatcher) provider.getPathMatcher()).remembersSkip("/**", "/added.txt")).isFalse();
		Files.writeString(this.uploads.resolve("added.txt"), "added while running");
		assertThat(provider.getForLookupPath("/added.txt")).isEqualTo("/added.txt");
	}

	/**
	 * A provider over two handlers, {@code /static/**} and {@code /webjars/**} on the
	 * given class-path location, {@code /**} on the given locations; each chain is the
	 * remembering resolver (unless {@code misses} is null), a counting resolver, then
	 * Framework's {@link PathResourceResolver}. Only the class-path locations count as
	 * unchanging, as inside a packaged jar.
	 */
	private static ResourceUrlProvider provider(@Nullable RememberedMisses misses, AtomicInteger asked,
			List<Resource> rootLocations) {
		Map<String, ResourceHttpRequestHandler> handlers = new LinkedHashMap<>();
		handlers.put("/static/**",
				handler(misses, 0, List.of(new ClassPathResource("resourcechain/static/")), new AtomicInteger()));
		handlers.put("/webjars/**",
				handler(misses, 1, List.of(new ClassPathResource("resourcechain/static/")), new AtomicInteger()));
		handlers.put("/**", handler(misses, 2, rootLocations, asked));
		ResourceUrlProvider provider = new ResourceUrlProvider();
		provider.setHandlerMap(handlers);
		if (misses != null) {
			provider.setPathMatcher(new MissSkippingPathMatcher(provider, misses));
		}
		return provider;
	}

	private static ResourceHttpRequestHandler handler(@Nullable RememberedMisses misses, int number,
			List<Resource> locations, AtomicInteger asked) {
		List<ResourceResolver> resolvers = new ArrayList<>();
		if (misses != null) {
			resolvers.add(new MissRememberingResourceResolver(misses, number, locations,
					locations.stream().filter((location) -> !(location instanceof ClassPathResource)).toList()));
		}
		resolvers.add(new CountingResolver(asked));
		resolvers.add(new PathResourceResolver());
		ResourceHttpRequestHandler handler = new ResourceHttpRequestHandler();
		handler.setLocations(locations);
		handler.setResourceResolvers(resolvers);
		return handler;
	}

	/** Counts the public URLs its chain is asked for. */
	private record CountingResolver(AtomicInteger asked) implements ResourceResolver {

		@Override
		public @Nullable Resource resolveResource(@Nullable HttpServletRequest request, String requestPath,
				List<? extends Resource> locations, ResourceResolverChain chain) {
			return chain.resolveResource(request, requestPath, locations);
		}

		@Override
		public @Nullable String resolveUrlPath(String resourcePath, List<? extends Resource> locations,
				ResourceResolverChain chain) {
			this.asked.incrementAndGet();
			return chain.resolveUrlPath(resourcePath, locations);
		}

	}

}
