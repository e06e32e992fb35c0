package dev.safedefaults.stuckrequests;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

import dev.safedefaults.support.LibraryFrames;
import org.jspecify.annotations.Nullable;

/**
 * Reads what a thread waits on from its stack, top frame first: the first frame of a row
 * of {@link LibraryFrames} that means a wait (an HTTP client, a JDBC driver or pool, a
 * logging queue, a {@code PrintStream}, {@code Thread.sleep}, the servlet container's
 * write to or read from a slow client) decides; a thread in none of them waits on a lock
 * when the JVM names one, else it is reported with its state where its application code
 * is. No reflection: class and method names of the frames, the thread's state and the
 * lock the JVM reports.
 */
public final class WaitClassifier {

	/** Enough frames to reach the servlet's from any client library. */
	private static final int MAX_DEPTH = 256;

	/**
	 * Stands for the holder of a virtual thread's lock, which is not known: the finding
	 * says why ({@link WaitGroup}) rather than guess.
	 */
	static final String VIRTUAL_THREAD_HOLDER_UNKNOWN = "its holder not known on a virtual thread";

	/** What a virtual thread blocked on entering a monitor waits for, unnamed. */
	static final String UNNAMED_MONITOR = "a monitor (synchronized) the JVM does not name for a virtual thread";

	private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

	private final JdbcPools pools;

	public WaitClassifier(JdbcPools pools) {
		this.pools = pools;
	}

	/**
	 * Classifies what a thread waits on now, from its stack, state and lock as the JVM's
	 * thread bean reports them.
	 * @param thread the thread
	 * @param destination the last HTTP destination its request asked about, or
	 * {@code null}
	 * @return the wait
	 */
	Wait classify(Thread thread, @Nullable String destination) {
		@SuppressWarnings("deprecation") // threadId() is JDK 19+; the baseline is 17
		ThreadInfo info = this.threads.getThreadInfo(thread.getId(), MAX_DEPTH);
		if (info == null) {
			// A virtual thread, which the JVM's thread bean does not see, or one just
			// ended: what public API still tells of its lock.
			Thread.State state = thread.getState();
			StackTraceElement[] frames = thread.getStackTrace();
			Wait wait = classify(frames, state, virtualThreadLock(thread, state), VIRTUAL_THREAD_HOLDER_UNKNOWN,
					destination);
			return interruptible(wait, frames, WaitGroup.isVirtual(thread));
		}
		StackTraceElement[] frames = info.getStackTrace();
		return interruptible(
				classify(frames, info.getThreadState(), info.getLockName(), info.getLockOwnerName(), destination),
				frames, WaitGroup.isVirtual(thread));
	}

	/**
	 * The wait, said to end on an interrupt when its frames say so: never a slow client's
	 * (the server's own I/O, and no fault of the service) nor a logging queue's.
	 */
	private static Wait interruptible(Wait wait, StackTraceElement[] frames, boolean virtual) {
		boolean leftAlone = wait.kind() == WaitKind.RESPONSE_WRITE || wait.kind() == WaitKind.REQUEST_READ
				|| wait.kind() == WaitKind.LOGGING_QUEUE;
		return (!leftAlone && LibraryFrames.interruptEnds(frames, virtual))
				? new Wait(wait.kind(), wait.target(), wait.site(), true) : wait;
	}

	/**
	 * Classifies one thread's wait.
	 * @param frames its stack, top frame first
	 * @param state its state
	 * @param lock the lock the JVM says it waits for, or {@code null}
	 * @param lockOwner the thread that holds that lock, or {@code null}
	 * @param destination the last HTTP destination its request asked about, or
	 * {@code null}
	 * @return the wait
	 */
	public Wait classify(StackTraceElement[] frames, Thread.State state, @Nullable String lock,
			@Nullable String lockOwner, @Nullable String destination) {
		String site = applicationSite(frames);
		for (StackTraceElement frame : frames) {
			LibraryFrames.Row row = LibraryFrames.of(frame);
			WaitKind kind = (row != null) ? kind(row.meaning()) : null;
			if (row != null && kind != null) {
				return new Wait(kind, target(kind, row, frames, lockOwner, destination), site);
			}
		}
		if (lock != null && state != Thread.State.RUNNABLE) {
			return new Wait(WaitKind.LOCK, lockTarget(lock, lockOwner, state), site);
		}
		return new Wait(WaitKind.OTHER, state.toString().toLowerCase(Locale.ROOT).replace('_', ' '), site);
	}

	/**
	 * The wait a frame of a row of {@link LibraryFrames} means.
	 * @param meaning the row's meaning
	 * @return the kind of wait, or {@code null} for a frame that is no wait by itself
	 */
	static @Nullable WaitKind kind(LibraryFrames.Meaning meaning) {
		return switch (meaning) {
			case HTTP_CLIENT, HTTP_CLIENT_POOL -> WaitKind.HTTP_RESPONSE;
			case JDBC_DRIVER -> WaitKind.JDBC_READ;
			case JDBC_POOL -> WaitKind.POOL_CONNECTION;
			case LOGGING_QUEUE -> WaitKind.LOGGING_QUEUE;
			case PRINT_STREAM -> WaitKind.PRINT_STREAM;
			case SLEEP -> WaitKind.SLEEP;
			case RESPONSE_WRITE -> WaitKind.RESPONSE_WRITE;
			case REQUEST_READ -> WaitKind.REQUEST_READ;
			case HTTP_CLIENT_API, LIBRARY -> null;
		};
	}

	private String target(WaitKind kind, LibraryFrames.Row row, StackTraceElement[] frames, @Nullable String lockOwner,
			@Nullable String destination) {
		return switch (kind) {
			case POOL_CONNECTION -> this.pools.waitedOn();
			case JDBC_READ -> row.library() + (throughHikari(frames) ? " on " + this.pools.inUse()
					: ", on a connection no Hikari pool handed out");
			case HTTP_RESPONSE -> httpTarget(frames, row.library(), destination);
			case PRINT_STREAM -> printStream(frames, row) + heldBy(lockOwner);
			case RESPONSE_WRITE -> row.library() + "'s blocking write of the response";
			case REQUEST_READ -> row.library() + "'s blocking read of the request's body";
			default -> row.library();
		};
	}

	private static String httpTarget(StackTraceElement[] frames, String library, @Nullable String destination) {
		StringBuilder target = new StringBuilder((destination != null) ? destination : "an unknown host");
		target.append(" (").append(library);
		String client = springClient(frames);
		if (client != null) {
			target.append(" via ").append(client);
		}
		if (waitsForPooledConnection(frames)) {
			target.append(", waiting for one of its pooled connections");
		}
		return target.append(')').toString();
	}

	private static @Nullable String springClient(StackTraceElement[] frames) {
		for (StackTraceElement frame : frames) {
			LibraryFrames.Row row = LibraryFrames.of(frame);
			if (row != null && row.meaning() == LibraryFrames.Meaning.HTTP_CLIENT_API) {
				return row.library();
			}
		}
		return null;
	}

	/**
	 * Whether a JDBC call goes through a connection of a Hikari pool: its proxies
	 * ({@code HikariProxyPreparedStatement}, {@code HikariProxyConnection}) or its pool
	 * are on the stack.
	 */
	private static boolean throughHikari(StackTraceElement[] frames) {
		for (StackTraceElement frame : frames) {
			LibraryFrames.Row row = LibraryFrames.of(frame);
			if (row != null && LibraryFrames.HIKARI.equals(row.library())) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Whether an HTTP client waits for one of its pooled connections: a frame of its
	 * pool's row is on the stack only while a connection is being leased (Apache
	 * HttpClient's classic pool: 5 connections per route unless configured).
	 */
	private static boolean waitsForPooledConnection(StackTraceElement[] frames) {
		for (StackTraceElement frame : frames) {
			LibraryFrames.Row row = LibraryFrames.of(frame);
			if (row != null && row.meaning() == LibraryFrames.Meaning.HTTP_CLIENT_POOL) {
				return true;
			}
		}
		return false;
	}

	/**
	 * The print stream's row, or {@code printStackTrace}'s when the write is one of a
	 * stack trace's lines: that names the writer.
	 */
	private static String printStream(StackTraceElement[] frames, LibraryFrames.Row first) {
		for (StackTraceElement frame : frames) {
			LibraryFrames.Row row = LibraryFrames.of(frame);
			if (row != null && row.meaning() == LibraryFrames.Meaning.PRINT_STREAM && !row.methods().isEmpty()) {
				return row.library();
			}
		}
		return first.library();
	}

	/**
	 * What public API tells of a virtual thread's lock: the object it parks on
	 * ({@code LockSupport.getBlocker}, as the thread bean names a platform thread's lock:
	 * class and identity), or, when it is blocked entering a monitor, that it is one.
	 * @param thread the virtual thread
	 * @param state its state
	 * @return the lock, or {@code null} when it waits on none
	 */
	static @Nullable String virtualThreadLock(Thread thread, Thread.State state) {
		if (state == Thread.State.BLOCKED) {
			return UNNAMED_MONITOR;
		}
		Object blocker = LockSupport.getBlocker(thread);
		return (blocker != null)
				? blocker.getClass().getName() + "@" + Integer.toHexString(System.identityHashCode(blocker)) : null;
	}

	private static String lockTarget(String lock, @Nullable String lockOwner, Thread.State state) {
		if (UNNAMED_MONITOR.equals(lock)) {
			return lock + heldBy(lockOwner);
		}
		String kind = (state == Thread.State.BLOCKED) ? "the monitor of " : "";
		return kind + lockClass(lock) + heldBy(lockOwner);
	}

	/** A lock's name is its class and identity hash: the class is what a reader needs. */
	private static String lockClass(String lock) {
		int at = lock.indexOf('@');
		return (at > 0) ? lock.substring(0, at) : lock;
	}

	private static String heldBy(@Nullable String lockOwner) {
		if (VIRTUAL_THREAD_HOLDER_UNKNOWN.equals(lockOwner)) {
			return ", " + lockOwner;
		}
		return (lockOwner != null) ? ", held by thread " + lockOwner : "";
	}

	/**
	 * The first frame of the application's own code: where a reader starts.
	 * @param frames the stack, top frame first
	 * @return the frame as {@code class.method:line}, or the top frame's when none is the
	 * application's
	 */
	static String applicationSite(StackTraceElement[] frames) {
		for (StackTraceElement frame : frames) {
			if (LibraryFrames.isApplications(frame)) {
				return frame(frame);
			}
		}
		return (frames.length > 0) ? frame(frames[0]) : "no frame";
	}

	private static String frame(StackTraceElement frame) {
		String line = (frame.getLineNumber() > 0) ? ":" + frame.getLineNumber() : "";
		return frame.getClassName() + "." + frame.getMethodName() + line;
	}

}
