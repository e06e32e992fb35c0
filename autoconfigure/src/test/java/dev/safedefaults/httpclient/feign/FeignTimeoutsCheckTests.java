package dev.safedefaults.httpclient.feign;

import java.util.List;

import dev.safedefaults.check.Finding;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.cloud.openfeign.FeignClientProperties;
import org.springframework.cloud.openfeign.FeignClientProperties.FeignClientConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Feign client configuration whose timeout is 0 or negative waits for ever and is
 * reported with the property to set; OpenFeign's own defaults (nothing set) are not.
 */
class FeignTimeoutsCheckTests {

	@Test
	void aZeroReadTimeoutIsReportedNamingTheClientsProperty() {
		FeignClientConfiguration pricing = new FeignClientConfiguration();
		pricing.setReadTimeout(0);
		pricing.setConnectTimeout(2000);
		List<Finding> findings = check(pricing, new FeignClientConfiguration());
		assertThat(findings).singleElement().satisfies((finding) -> {
			assertThat(finding.id()).isEqualTo("feign.no-timeout");
			assertThat(finding.subject()).isEqualTo("Feign client 'pricing'");
			assertThat(finding.message()).startsWith("Its read timeout is 0 ms");
			assertThat(finding.fix()).startsWith("Set spring.cloud.openfeign.client.config.pricing.read-timeout");
		});
	}

	@Test
	void openFeignsDefaultsAndBoundedTimeoutsAreNotReported() {
		FeignClientConfiguration pricing = new FeignClientConfiguration();
		pricing.setReadTimeout(5000);
		assertThat(check(pricing, new FeignClientConfiguration())).isEmpty();
	}

	private static List<Finding> check(FeignClientConfiguration pricing, FeignClientConfiguration defaults) {
		FeignClientProperties properties = new FeignClientProperties();
		properties.getConfig().put("pricing", pricing);
		properties.getConfig().put("default", defaults);
		DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
		beanFactory.registerSingleton("feignClientProperties", properties);
		return new FeignTimeoutsCheck(beanFactory.getBeanProvider(FeignClientProperties.class)).run();
	}

}
