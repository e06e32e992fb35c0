package dev.safedefaults.configcache;

import java.util.List;

import com.github.benmanes.caffeine.cache.Caffeine;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FeatureStatus;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.configcache.actuate.ConfigCacheMetricsAutoConfiguration;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.NoUniqueBeanDefinitionException;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The cache's bean and JSON mapper, its status ({@link ParsedConfigCacheFeatureStatus}),
 * its properties' bounds ({@link ParsedConfigCacheProperties}) and the mutable-type
 * finding; its meters are {@code ConfigCacheMetricsAutoConfigurationTests}'.
 */
class ParsedConfigCacheAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SafeDefaultsAutoConfiguration.class,
				ParsedConfigCacheAutoConfiguration.class, ConfigCacheMetricsAutoConfiguration.class));

	private final ApplicationContextRunner withJackson = this.runner
		.withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class));

	@Test
	void aCacheBeanByDefault() {
		this.withJackson.run((context) -> {
			assertThat(context).hasSingleBean(ParsedConfigCache.class);
			assertThat(context.getBean(ParsedConfigCache.class).parse("{\"maxConnections\":5}", Connections.class))
				.isEqualTo(new Connections(5));
		});
	}

	@Test
	void theApplicationsJsonMapperSettingsApply() {
		this.withJackson.withPropertyValues("spring.jackson.property-naming-strategy=SNAKE_CASE").run((context) -> {
			ParsedConfigCache cache = context.getBean(ParsedConfigCache.class);
			assertThat(cache.parse("{\"max_connections\":5}", Connections.class).maxConnections()).isEqualTo(5);
			assertThat(status(context).appliedTo()).singleElement()
				.asString()
				.contains("the application's JsonMapper bean");
		});
	}

	@Test
	void anApplicationDefinedJsonMapperIsUsed() {
		this.runner.withUserConfiguration(SnakeCaseJsonMapperConfiguration.class).run((context) -> {
			ParsedConfigCache cache = context.getBean(ParsedConfigCache.class);
			assertThat(cache.parse("{\"max_connections\":5}", Connections.class).maxConnections()).isEqualTo(5);
		});
	}

	@Test
	void severalJsonMappersWithoutAPrimaryFailStartupRatherThanPickOne() {
		this.runner.withUserConfiguration(SnakeCaseJsonMapperConfiguration.class, SecondJsonMapperConfiguration.class)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause().isInstanceOf(NoUniqueBeanDefinitionException.class);
			});
	}

	@Test
	void withoutAJsonMapperBeanADefaultMapperIsUsedAndReported() {
		this.runner.run((context) -> {
			assertThat(context.getBean(ParsedConfigCache.class).parse("{\"maxConnections\":5}", Connections.class))
				.isEqualTo(new Connections(5));
			assertThat(status(context).appliedTo()).singleElement()
				.asString()
				.contains("a default JsonMapper (the application has no JsonMapper bean)");
		});
	}

	@Test
	void theStatusReportsTheBoundAndTheEntries() {
		this.withJackson
			.withPropertyValues("safe-defaults.config-cache.maximum-weight=1MB",
					"safe-defaults.config-cache.expire-after-access=1h")
			.run((context) -> {
				context.getBean(ParsedConfigCache.class).parse("{\"maxConnections\":5}", Connections.class);
				context.getBean(ParsedConfigCache.class).cleanUp();
				FeatureStatus status = status(context);
				assertThat(status.feature()).isEqualTo("config-cache");
				assertThat(status.enabled()).isTrue();
				assertThat(status.appliedTo()).singleElement()
					.asString()
					.contains("1 entries", "at most 1048576 bytes", "expire after PT1H unread");
			});
	}

	@Test
	void optOutRemovesTheCacheAndTheStatusSaysWhy() {
		this.withJackson.withPropertyValues("safe-defaults.config-cache.enabled=false").run((context) -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(ParsedConfigCache.class);
			FeatureStatus status = status(context);
			assertThat(status.enabled()).isFalse();
			assertThat(status.reason()).isEqualTo("safe-defaults.config-cache.enabled is false");
		});
	}

	@Test
	void theMasterSwitchRemovesTheCacheAndItsStatus() {
		this.withJackson.withPropertyValues("safe-defaults.enabled=false").run((context) -> {
			assertThat(context).hasNotFailed()
				.doesNotHaveBean(ParsedConfigCache.class)
				.doesNotHaveBean(FeatureStatusReporter.class);
		});
	}

	@Test
	void withoutCaffeineThereIsNoCacheAndTheStatusSaysWhy() {
		this.withJackson.withClassLoader(new FilteredClassLoader(Caffeine.class)).run((context) -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(ParsedConfigCache.class);
			assertThat(status(context).reason()).contains("Caffeine is not on the class path",
					"com.github.ben-manes.caffeine:caffeine");
		});
	}

	@Test
	void withoutJacksonThereIsNoCacheAndTheStatusSaysWhy() {
		this.runner.withClassLoader(new FilteredClassLoader("tools.jackson")).run((context) -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(ParsedConfigCache.class);
			assertThat(status(context).reason()).contains("Jackson 3 is not on the class path",
					"tools.jackson.core:jackson-databind");
		});
	}

	@Test
	void anApplicationDefinedCacheIsKept() {
		this.withJackson.withUserConfiguration(CustomCacheConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(ParsedConfigCache.class);
			assertThat(context.getBean(ParsedConfigCache.class))
				.isSameAs(context.getBean(CustomCacheConfiguration.class).cache);
			assertThat(status(context).appliedTo()).singleElement()
				.asString()
				.contains("the JsonMapper given to its constructor");
		});
	}

	@Test
	void aNegativeMaximumWeightFailsStartupNamingPropertyValueAndWhatIsAllowed() {
		this.withJackson.withPropertyValues("safe-defaults.config-cache.maximum-weight=-1MB").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, (ex) -> {
					assertThat(ex.getName()).isEqualTo("safe-defaults.config-cache.maximum-weight");
					assertThat(ex.getValue()).hasToString("-1MB");
					assertThat(ex.getReason()).contains("Must be from 1B to 1GB", "64MB");
				});
		});
	}

	@Test
	void aMaximumWeightAboveOneGigabyteFailsStartup() {
		this.withJackson.withPropertyValues("safe-defaults.config-cache.maximum-weight=2GB").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, (ex) -> {
					assertThat(ex.getName()).isEqualTo("safe-defaults.config-cache.maximum-weight");
					assertThat(ex.getValue()).hasToString("2GB");
					assertThat(ex.getReason()).contains("to 1GB");
				});
		});
	}

	@Test
	void aMaxTextLengthOutOfRangeFailsStartupNamingPropertyValueAndRange() {
		for (String value : new String[] { "0", "67108865" }) {
			this.withJackson.withPropertyValues("safe-defaults.config-cache.max-text-length=" + value)
				.run((context) -> {
					assertThat(context).hasFailed();
					assertThat(context.getStartupFailure()).rootCause()
						.isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, (ex) -> {
							assertThat(ex.getName()).isEqualTo("safe-defaults.config-cache.max-text-length");
							assertThat(ex.getValue()).hasToString(value);
							assertThat(ex.getReason()).contains("Must be from 1 to 67108864", "characters");
						});
				});
		}
	}

	@Test
	void aMaxNestingDepthOutOfRangeFailsStartupNamingPropertyValueAndRange() {
		for (String value : new String[] { "0", "1001" }) {
			this.withJackson.withPropertyValues("safe-defaults.config-cache.max-nesting-depth=" + value)
				.run((context) -> {
					assertThat(context).hasFailed();
					assertThat(context.getStartupFailure()).rootCause()
						.isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, (ex) -> {
							assertThat(ex.getName()).isEqualTo("safe-defaults.config-cache.max-nesting-depth");
							assertThat(ex.getReason()).contains("Must be from 1 to 1000", "levels");
						});
				});
		}
	}

	@Test
	void theLimitsForOneTextApply() {
		this.withJackson
			.withPropertyValues("safe-defaults.config-cache.max-text-length=10",
					"safe-defaults.config-cache.max-nesting-depth=2")
			.run((context) -> {
				ParsedConfigCache cache = context.getBean(ParsedConfigCache.class);
				assertThatExceptionOfType(ConfigParseException.class)
					.isThrownBy(() -> cache.parse("[\"" + "x".repeat(10) + "\"]", List.class))
					.withMessageContaining("max-text-length");
				assertThatExceptionOfType(ConfigParseException.class)
					.isThrownBy(() -> cache.parse("[[[]]]", List.class))
					.withMessageContaining("max-nesting-depth");
			});
	}

	@Test
	void aZeroMaximumWeightFailsStartup() {
		this.withJackson.withPropertyValues("safe-defaults.config-cache.maximum-weight=0").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class,
						(ex) -> assertThat(ex.getName()).isEqualTo("safe-defaults.config-cache.maximum-weight"));
		});
	}

	@Test
	void aMaximumWeightThatIsNotASizeFailsStartupNamingTheProperty() {
		this.withJackson.withPropertyValues("safe-defaults.config-cache.maximum-weight=lots").run((context) -> {
			assertThat(context).hasFailed();
			Throwable failure = context.getStartupFailure();
			while (failure != null && !(failure instanceof BindException)) {
				failure = failure.getCause();
			}
			assertThat(failure).isInstanceOf(BindException.class)
				.hasMessageContaining("safe-defaults.config-cache.maximum-weight");
		});
	}

	@Test
	void aNonPositiveExpireAfterAccessFailsStartup() {
		this.withJackson.withPropertyValues("safe-defaults.config-cache.expire-after-access=0s").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, (ex) -> {
					assertThat(ex.getName()).isEqualTo("safe-defaults.config-cache.expire-after-access");
					assertThat(ex.getReason()).contains("from 1ms to 1d");
				});
		});
	}

	@Test
	void aBadValueFailsStartupEvenWhenTheCacheIsOffSinceThePropertiesCheckThemselves() {
		this.withJackson
			.withPropertyValues("safe-defaults.config-cache.enabled=false",
					"safe-defaults.config-cache.maximum-weight=-1")
			.run((context) -> assertThat(context).hasFailed());
	}

	@Test
	void theFirstParseIntoAMutableTypePublishesAFinding() {
		this.withJackson.run((context) -> {
			ParsedConfigCache cache = context.getBean(ParsedConfigCache.class);
			cache.parse("{\"maxConnections\":5}", Connections.class);
			assertThat(context.getBean(FindingsStore.class).findings()).isEmpty();
			cache.parse("{\"name\":\"orders\"}", MutableSettings.class);
			assertThat(context.getBean(FindingsStore.class).findings()).singleElement().satisfies((finding) -> {
				assertThat(finding.id()).isEqualTo("config-cache.mutable-type");
				assertThat(finding.subject()).isEqualTo(MutableSettings.class.getTypeName());
			});
		});
	}

	@Test
	void theMutableTypeFindingCanBeSilenced() {
		this.withJackson.withPropertyValues("safe-defaults.checks.disabled=config-cache.mutable-type")
			.run((context) -> {
				context.getBean(ParsedConfigCache.class).parse("{\"name\":\"orders\"}", MutableSettings.class);
				assertThat(context.getBean(FindingsStore.class).findings()).isEmpty();
			});
	}

	private static FeatureStatus status(AssertableApplicationContext context) {
		return context.getBean(FeatureStatusReporter.class).status();
	}

	record Connections(int maxConnections) {
	}

	static class MutableSettings {

		private String name;

		public String getName() {
			return this.name;
		}

		public void setName(String name) {
			this.name = name;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class SnakeCaseJsonMapperConfiguration {

		@Bean
		JsonMapper snakeCaseJsonMapper() {
			return JsonMapper.builder().propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE).build();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class SecondJsonMapperConfiguration {

		@Bean
		JsonMapper secondJsonMapper() {
			return JsonMapper.builder().build();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CustomCacheConfiguration {

		final ParsedConfigCache cache = new ParsedConfigCache(JsonMapper.builder().build(), 1024, null);

		@Bean
		ParsedConfigCache customParsedConfigCache() {
			return this.cache;
		}

	}

}
