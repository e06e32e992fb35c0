package dev.safedefaults.stuckrequests;

/**
 * What the watch can say about the application's JDBC pools when a request waits on one.
 */
interface JdbcPools {

	/** Without a pool library the watch knows: it names the connection only. */
	JdbcPools UNKNOWN = new JdbcPools() {

		@Override
		public String waitedOn() {
			return "the connection pool";
		}

		@Override
		public String inUse() {
			return "a pooled connection";
		}

	};

	/**
	 * The pool a request waits for a connection of, with its state.
	 * @return for example {@code HikariPool-1 (10 of 10 in use, 4 waiting)}
	 */
	String waitedOn();

	/**
	 * The pool a request reads from.
	 * @return the pool, or the pools it may be
	 */
	String inUse();

}
