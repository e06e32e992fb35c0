package dev.safedefaults.stuckrequests;

/**
 * What the watch can say about the application's JDBC pools when a request waits on one.
 */
public interface JdbcPools {

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
		public PoolState state() {
			return PoolState.NONE;
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
	 * The pools in use now, read once.
	 * @return their state, {@link PoolState#NONE} when unknown
	 */
	PoolState state();

	/**
	 * The pools' state at one reading.
	 *
	 * @param text the pools in use: connections in use of the maximum, threads waiting;
	 * empty when none is in use
	 * @param connectionsInUseWhereWaitedOn how many connections are in use in the pools
	 * that threads wait on, {@code -1} when unknown
	 */
	record PoolState(String text, int connectionsInUseWhereWaitedOn) {

		/** Nothing known. */
		public static final PoolState NONE = new PoolState("", -1);

	}

}
