package dev.safedefaults.configcache;

import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Raises {@code config-cache.mutable-type} (INFO) the first time the cache parses into a
 * target type that callers could change: one with setters or public non-final fields (its
 * own, or those of the classes its fields hold), a collection or map (Jackson fills a
 * mutable {@code ArrayList} or {@code LinkedHashMap}), an array or a Jackson tree. The
 * cache hands one object to every caller, so a change by one is seen by all.
 * <p>
 * Collections inside a record or class are not flagged: a compact constructor may copy
 * them ({@code List.copyOf}), which reflection cannot see.
 */
final class MutableTypeListener implements Consumer<Type> {

	/** The findings store source these findings are published under. */
	static final String SOURCE = ParsedConfigCache.class.getName();

	/** How many mutable parts one finding names before it says "and N more". */
	private static final int LISTED_PARTS = 5;

	private final FindingsStore store;

	private final Set<Type> inspected = ConcurrentHashMap.newKeySet();

	/**
	 * Guarded by {@code this}: publishing replaces the whole list, so it is serialised.
	 */
	private final Map<String, Finding> findings = new TreeMap<>();

	MutableTypeListener(FindingsStore store) {
		this.store = store;
	}

	/**
	 * Called by the cache before it parses a key; inspects each type once.
	 * @param type the target type
	 */
	@Override
	public void accept(Type type) {
		if (!this.inspected.add(type) || this.store.isSilenced(ConfigCacheFindings.MUTABLE_TYPE.id())) {
			return;
		}
		List<String> parts;
		try {
			parts = mutableParts(type);
		}
		catch (RuntimeException | LinkageError ex) {
			// A field whose type is not on the class path, a security manager: not worth
			// a
			// failed parse. The type simply goes unreported.
			return;
		}
		if (parts.isEmpty()) {
			return;
		}
		Finding finding = ConfigCacheFindings.MUTABLE_TYPE.raise(type.getTypeName(), describe(parts));
		synchronized (this) {
			this.findings.put(type.getTypeName(), finding);
			this.store.publish(SOURCE, List.copyOf(this.findings.values()));
		}
	}

	private static String describe(List<String> parts) {
		if (parts.size() <= LISTED_PARTS) {
			return String.join(", ", parts);
		}
		return String.join(", ", parts.subList(0, LISTED_PARTS)) + " and " + (parts.size() - LISTED_PARTS) + " more";
	}

	/**
	 * Lists what makes a target type mutable.
	 * @param type the target type
	 * @return the mutable parts, empty when none was found
	 */
	static List<String> mutableParts(Type type) {
		Set<String> parts = new LinkedHashSet<>();
		Class<?> raw = rawClass(type);
		if (raw != null) {
			if (raw.isArray()) {
				parts.add("an array");
			}
			else if (Collection.class.isAssignableFrom(raw)) {
				parts.add("a " + raw.getSimpleName() + ", which Jackson fills as a mutable collection");
			}
			else if (Map.class.isAssignableFrom(raw)) {
				parts.add("a " + raw.getSimpleName() + ", which Jackson fills as a mutable map");
			}
			else if (JsonNode.class.isAssignableFrom(raw)) {
				parts.add("a Jackson tree, whose object and array nodes are mutable");
			}
		}
		inspect(type, new HashSet<>(), parts);
		return new ArrayList<>(parts);
	}

	private static @Nullable Class<?> rawClass(Type type) {
		if (type instanceof Class<?> type1) {
			return type1;
		}
		if (type instanceof ParameterizedType parameterized) {
			return rawClass(parameterized.getRawType());
		}
		if (type instanceof GenericArrayType) {
			return Object[].class;
		}
		return null;
	}

	/**
	 * Walks the type, its type arguments and the types of its fields, skipping library
	 * classes.
	 */
	private static void inspect(Type type, Set<Class<?>> visited, Set<String> parts) {
		if (type instanceof ParameterizedType parameterized) {
			inspect(parameterized.getRawType(), visited, parts);
			for (Type argument : parameterized.getActualTypeArguments()) {
				inspect(argument, visited, parts);
			}
		}
		else if (type instanceof GenericArrayType array) {
			inspect(array.getGenericComponentType(), visited, parts);
		}
		else if (type instanceof WildcardType wildcard) {
			for (Type bound : wildcard.getUpperBounds()) {
				inspect(bound, visited, parts);
			}
		}
		else if (type instanceof Class<?> type1) {
			if (type1.isArray()) {
				inspect(type1.getComponentType(), visited, parts);
			}
			else if (!isLibraryClass(type1) && visited.add(type1)) {
				inspectClass(type1, visited, parts);
			}
		}
	}

	private static void inspectClass(Class<?> type, Set<Class<?>> visited, Set<String> parts) {
		for (Method method : type.getMethods()) {
			if (isSetter(method) && !isLibraryClass(method.getDeclaringClass())) {
				parts.add("setter " + type.getSimpleName() + "." + method.getName());
			}
		}
		for (Class<?> current = type; current != null && !isLibraryClass(current); current = current.getSuperclass()) {
			for (Field field : current.getDeclaredFields()) {
				int modifiers = field.getModifiers();
				if (Modifier.isStatic(modifiers) || field.isSynthetic()) {
					continue;
				}
				if (Modifier.isPublic(modifiers) && !Modifier.isFinal(modifiers)) {
					parts.add("public field " + current.getSimpleName() + "." + field.getName());
				}
				inspect(field.getGenericType(), visited, parts);
			}
		}
	}

	private static boolean isSetter(Method method) {
		String name = method.getName();
		return !Modifier.isStatic(method.getModifiers()) && method.getParameterCount() == 1 && name.length() > 3
				&& name.startsWith("set") && Character.isUpperCase(name.charAt(3));
	}

	/**
	 * Whether a class belongs to the JDK or Jackson: its mutability is not the
	 * application's to fix, and walking into it would only add noise.
	 */
	private static boolean isLibraryClass(Class<?> type) {
		if (type.isPrimitive() || type.getClassLoader() == null) {
			return true;
		}
		String name = type.getName();
		return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.")
				|| name.startsWith("sun.") || name.startsWith("tools.jackson.") || name.startsWith("com.fasterxml.");
	}

}
