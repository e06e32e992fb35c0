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

		@Override
		public String state() {
			return "";
		}

	};

	/**
	 * The pools requests wait for a connection of.
	 * @return their names, for example {@code HikariPool-1}
	 */
	String waitedOn();

	/**
	 * The pool a request reads from.
	 * @return the pool, or the pools it may be
	 */
	String inUse();

	/**
	 * The pools in use now: connections in use of the maximum, threads waiting.
	 * @return their state, empty when none is in use
	 */
	String state();

	/**
	 * How many connections are in use in the pools that threads wait on now.
	 * @return the count, or {@code -1} when unknown
	 */
	default int connectionsInUseWhereWaitedOn() {
		return -1;
	}

}
