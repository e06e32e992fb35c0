package dev.safedefaults.stuckrequests;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.Arrays;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.jdbc.MachineService;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Update;
import org.apache.ibatis.session.SqlSessionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mybatis.spring.SqlSessionFactoryBean;
import org.mybatis.spring.SqlSessionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A MyBatis mapper, called through MyBatis-Spring's {@code SqlSessionTemplate} as a
 * service calls it (seed 002's service did), whose statement the database holds: an
 * {@code UPDATE} of a row another connection has locked, on the MariaDB at 127.0.0.1:3306
 * (root, no password, database {@code test}), through a Hikari pool. The real thread's
 * stack runs through the mapper's JDK proxy, {@code MapperProxy},
 * {@code SqlSessionTemplate$SqlSessionInterceptor} and MyBatis's executor into the
 * driver's read: the classifier names a JDBC read at the application's frame that called
 * the mapper, never at a MyBatis frame. Without that server the class fails where it is
 * required (CI, or {@code -Dolder-mariadb.required=true}) and is skipped elsewhere, with
 * a {@code SKIPPED:} line ({@link MachineService}).
 */
class WaitClassifierOnMyBatisTests {

	private static final String HOST = "127.0.0.1";

	private static final int PORT = 3306;

	private static final String URL = "jdbc:mariadb://" + HOST + ":" + PORT + "/test";

	private static final String TABLE = "safe_defaults_mybatis_"
			+ UUID.randomUUID().toString().replace("-", "").substring(0, 12);

	/** How long the thread may take to reach its wait on a loaded machine. */
	private static final Duration REACHES_ITS_WAIT = Duration.ofSeconds(20);

	@BeforeAll
	static void requireTheServer() throws Exception {
		if (!MachineService.listens(HOST, PORT)) {
			MachineService.missing("older-mariadb.required",
					"no MariaDB at " + HOST + ":" + PORT
							+ " (root, no password, database 'test'; CI machines run 10.11): start it with "
							+ "'service mariadb start', or install it with 'apt-get install mariadb-server'");
		}
		try (HikariDataSource admin = pool("mybatis-admin");
				Connection connection = admin.getConnection();
				Statement statement = connection.createStatement()) {
			statement.execute("CREATE TABLE " + TABLE + " (id INT PRIMARY KEY, views BIGINT NOT NULL)");
			statement.execute("INSERT INTO " + TABLE + " VALUES (1, 0)");
		}
	}

	@AfterAll
	static void dropTheTable() throws Exception {
		if (MachineService.listens(HOST, PORT)) {
			try (HikariDataSource admin = pool("mybatis-admin");
					Connection connection = admin.getConnection();
					Statement statement = connection.createStatement()) {
				statement.execute("DROP TABLE IF EXISTS " + TABLE);
			}
		}
	}

	@Test
	void aMapperWhoseStatementTheDatabaseHoldsIsAJdbcReadAtTheApplicationsCallerNotAtMyBatis() throws Exception {
		try (HikariDataSource pool = pool("mybatis-orders"); Connection holder = pool.getConnection()) {
			// Another transaction holds the row: the mapper's UPDATE waits, and the
			// server sends nothing meanwhile (up to innodb_lock_wait_timeout, 50 s).
			holder.setAutoCommit(false);
			try (Statement statement = holder.createStatement()) {
				statement.executeUpdate("UPDATE " + TABLE + " SET views = views + 1 WHERE id = 1");
			}
			SqlSessionFactoryBean factory = new SqlSessionFactoryBean();
			factory.setDataSource(pool);
			SqlSessionFactory sessions = factory.getObject();
			sessions.getConfiguration().addMapper(OrderMapper.class);
			OrderViews views = new OrderViews(new SqlSessionTemplate(sessions).getMapper(OrderMapper.class));
			AtomicReference<Object> outcome = new AtomicReference<>();
			Thread thread = new Thread(() -> {
				try {
					outcome.set(views.touch(1));
				}
				catch (RuntimeException ex) {
					outcome.set(ex);
				}
			}, "stuck-mybatis");
			thread.setDaemon(true);
			thread.start();
			try {
				WaitClassifier classifier = new WaitClassifier(JdbcPools.UNKNOWN);
				AtomicReference<Wait> seen = new AtomicReference<>();
				await("the mapper's statement held by the database").atMost(REACHES_ITS_WAIT).untilAsserted(() -> {
					seen.set(classifier.classify(thread, null));
					assertThat(seen.get().kind()).as("%s", seen.get()).isEqualTo(WaitKind.JDBC_READ);
				});
				StackTraceElement[] stack = thread.getStackTrace();
				assertThat(Arrays.stream(stack).map(StackTraceElement::getClassName))
					.as("the stack runs through MyBatis-Spring and MyBatis")
					.anyMatch((type) -> type.startsWith("org.mybatis.spring.SqlSessionTemplate"))
					.anyMatch((type) -> type.startsWith("org.apache.ibatis.binding.MapperProxy"));
				assertThat(seen.get().target()).isEqualTo("MariaDB Connector/J on a pooled connection");
				assertThat(seen.get().site()).startsWith(OrderViews.class.getName() + ".touch:");
				assertThat(seen.get().subject()).doesNotContain("org.mybatis").doesNotContain("org.apache.ibatis");
			}
			finally {
				holder.rollback();
				thread.join(TimeUnit.SECONDS.toMillis(20));
			}
			assertThat(thread.isAlive()).as("the mapper's call ended once the row was freed").isFalse();
			assertThat(outcome.get()).as("the mapper's update, once the row was freed").isEqualTo(1);
		}
	}

	private static HikariDataSource pool(String name) {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(URL);
		config.setUsername("root");
		config.setPassword("");
		config.setPoolName(name);
		config.setMaximumPoolSize(2);
		config.setConnectionTimeout(Duration.ofSeconds(10).toMillis());
		return new HikariDataSource(config);
	}

	/** The application's mapper, as seed 002's service declared its own. */
	interface OrderMapper {

		@Update("UPDATE ${table} SET views = views + 1 WHERE id = #{id}")
		int touch(@Param("table") String table, @Param("id") long id);

	}

	/** The application's code that calls the mapper: where a reader starts. */
	static final class OrderViews {

		private final OrderMapper mapper;

		OrderViews(OrderMapper mapper) {
			this.mapper = mapper;
		}

		int touch(long id) {
			return this.mapper.touch(TABLE, id);
		}

	}

}
