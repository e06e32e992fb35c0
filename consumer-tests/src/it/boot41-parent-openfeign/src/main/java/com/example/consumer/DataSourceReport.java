package com.example.consumer;

import javax.sql.DataSource;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;

/** Logs the DataSource bean's type, so the test sees that Boot put the lazy proxy in front. */
@Component
class DataSourceReport implements ApplicationRunner {

	private static final Log logger = LogFactory.getLog(DataSourceReport.class);

	private final DataSource dataSource;

	DataSourceReport(DataSource dataSource) {
		this.dataSource = dataSource;
	}

	@Override
	public void run(ApplicationArguments args) {
		logger.info("DataSource bean: " + this.dataSource.getClass().getName());
	}

}
