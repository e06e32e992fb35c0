package dev.safedefaults.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.cloud.openfeign.EnableFeignClients;

/**
 * A small order service that uses safe-defaults as a customer would: one dependency, no
 * code of the starter's, only properties and public beans.
 */
@SpringBootApplication
@EnableFeignClients
public class SampleApplication {

	public static void main(String[] args) {
		SpringApplication.run(SampleApplication.class, args);
	}

}
