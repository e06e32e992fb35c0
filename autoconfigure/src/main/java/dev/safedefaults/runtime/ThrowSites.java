package dev.safedefaults.runtime;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

/**
 * Where the throwables of one diagnostic window came from: each throw is grouped by its
 * class and the first three frames outside the JDK, and the five largest groups are kept
 * with their shares.
 * <p>
 * The frames a person needs are rarely the top ones: a class-not-found (incident 1) is
 * thrown deep inside class loaders, and a throwable's own constructors come first. So JDK
 * frames, class-loader frames (the application's own loaders too, such as Boot's
 * {@code LaunchedClassLoader}), lambdas' generated classes and the throwable's
 * constructor chain are skipped: what is left starts at the code that asked for the
 * missing class or built the exception.
 */
public final class ThrowSites {

	/** How many sites are kept. */
	public static final int TOP = 5;

	/** How many frames outside the JDK name a site. */
	static final int FRAMES = 3;

	private static final Set<String> CLASS_LOADING_METHODS = Set.of("loadClass", "findClass", "loadClassOrNull");

	private static final List<String> JDK_PACKAGES = List.of("java.", "jdk.", "sun.", "com.sun.");

	private final Instant recordedAt;

	private final Duration length;

	private final long total;

	private final List<Site> top;

	ThrowSites(Instant recordedAt, Duration length, long total, List<Site> top) {
		this.recordedAt = recordedAt;
		this.length = length;
		this.total = total;
		this.top = List.copyOf(top);
	}

	public Instant recordedAt() {
		return this.recordedAt;
	}

	long total() {
		return this.total;
	}

	List<Site> top() {
		return this.top;
	}

	/**
	 * The sites as one line:
	 * {@code 62% java.lang.ClassNotFoundException at a.B.c:12 ← …}.
	 * @return the description
	 */
	public String describe() {
		if (this.top.isEmpty()) {
			return "no throws were recorded in the window at " + this.recordedAt.truncatedTo(ChronoUnit.SECONDS);
		}
		return this.top.stream().map(Site::describe).collect(Collectors.joining("; ")) + " (of "
				+ String.format(Locale.ROOT, "%,d", this.total) + " throws recorded in " + this.length.toMillis()
				+ " ms at " + this.recordedAt.truncatedTo(ChronoUnit.SECONDS) + ")";
	}

	/**
	 * Picks the frames that name a site: the first three outside the JDK, class loaders
	 * and the throwable's own constructors.
	 * @param thrownClass the throwable's class name
	 * @param frames the stack, innermost first
	 * @return at most three frames, as {@code class.method:line}
	 */
	static List<String> siteFrames(String thrownClass, List<Frame> frames) {
		List<String> site = new ArrayList<>(FRAMES);
		boolean inConstructors = true;
		for (Frame frame : frames) {
			if (frame.jdk() || isClassLoading(frame) || isLambda(frame)) {
				continue;
			}
			if (inConstructors && isThrowableConstructor(frame, thrownClass)) {
				continue;
			}
			inConstructors = false;
			site.add(frame.describe());
			if (site.size() == FRAMES) {
				break;
			}
		}
		return site;
	}

	/**
	 * Whether a class belongs to the JDK: loaded by the bootstrap or platform loader, or
	 * in a JDK package (reflection accessors and proxies have loaders of their own).
	 * @param className the class name
	 * @param loaderName the defining loader's name, {@code null} when it has none
	 * @return {@code true} for JDK classes
	 */
	static boolean isJdk(String className, @Nullable String loaderName) {
		if ("bootstrap".equals(loaderName) || "platform".equals(loaderName)) {
			return true;
		}
		for (String prefix : JDK_PACKAGES) {
			if (className.startsWith(prefix)) {
				return true;
			}
		}
		return false;
	}

	private static boolean isClassLoading(Frame frame) {
		String simpleName = frame.className().substring(frame.className().lastIndexOf('.') + 1);
		return simpleName.contains("ClassLoader") || CLASS_LOADING_METHODS.contains(frame.methodName());
	}

	/** A lambda's generated class: glue between two frames that say more. */
	private static boolean isLambda(Frame frame) {
		return frame.className().contains("$$Lambda");
	}

	private static boolean isThrowableConstructor(Frame frame, String thrownClass) {
		if (!"<init>".equals(frame.methodName())) {
			return false;
		}
		String name = frame.className();
		return name.equals(thrownClass) || name.endsWith("Exception") || name.endsWith("Error")
				|| name.endsWith("Throwable");
	}

	/**
	 * One stack frame.
	 *
	 * @param className the class name
	 * @param methodName the method name
	 * @param line the line number, or a negative number when unknown
	 * @param jdk whether the class belongs to the JDK
	 */
	record Frame(String className, String methodName, int line, boolean jdk) {

		String describe() {
			return this.className + "." + this.methodName + ((this.line > 0) ? ":" + this.line : "");
		}

	}

	/**
	 * One group of throws.
	 *
	 * @param thrownClass the class thrown
	 * @param frames the first frames outside the JDK, innermost first
	 * @param count how many throws the window recorded here
	 * @param share the count as a part of all recorded throws
	 */
	record Site(String thrownClass, List<String> frames, long count, double share) {

		String describe() {
			String where = this.frames.isEmpty() ? " (JDK frames only)" : " at " + String.join(" ← ", this.frames);
			return String.format(Locale.ROOT, "%.0f%% ", this.share * 100) + this.thrownClass + where;
		}

	}

	/**
	 * Counts the throws of one window. Used by one thread at a time. It holds at most
	 * {@value #MAX_SITES} distinct sites; throws at further sites count in the total
	 * only.
	 */
	static final class Counter {

		static final int MAX_SITES = 4096;

		private final Map<SiteKey, long[]> counts = new HashMap<>();

		private long total;

		void add(String thrownClass, List<String> frames) {
			this.total++;
			SiteKey key = new SiteKey(thrownClass, frames);
			long[] count = this.counts.get(key);
			if (count == null) {
				if (this.counts.size() >= MAX_SITES) {
					return;
				}
				count = new long[1];
				this.counts.put(key, count);
			}
			count[0]++;
		}

		long total() {
			return this.total;
		}

		ThrowSites toSites(Instant recordedAt, Duration length) {
			long all = this.total;
			List<Site> top = this.counts.entrySet()
				.stream()
				.sorted(Comparator.comparingLong((Map.Entry<SiteKey, long[]> e) -> e.getValue()[0]).reversed())
				.limit(TOP)
				.map((e) -> new Site(e.getKey().thrownClass(), e.getKey().frames(), e.getValue()[0],
						(double) e.getValue()[0] / all))
				.toList();
			return new ThrowSites(recordedAt, length, all, top);
		}

	}

	private record SiteKey(String thrownClass, List<String> frames) {
	}

}
