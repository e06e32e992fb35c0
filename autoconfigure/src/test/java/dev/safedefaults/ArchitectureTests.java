package dev.safedefaults;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import javax.sql.DataSource;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

import com.sun.source.tree.AnnotationTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TreeScanner;
import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaFieldAccess;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.Slice;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.logging.log4j2.StarterSwitchedOffAutoConfiguration;
import org.jspecify.annotations.NullMarked;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.util.unit.DataSize;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The house rules of docs/architecture.md, enforced by the build: the layering of the
 * packages, the shape of auto-configurations and properties classes, and the small rules
 * that were broken while they were prose only. Each rule reads the compiled main classes
 * (ArchUnit), except those that read the sources: the one about {@code @Bean} method
 * bodies (statements are not visible in byte code), the bound on a package's lines, and
 * the two that keep the tests following the code (every main type named by a test, every
 * main package with its test package).
 */
class ArchitectureTests {

	private static final String ROOT = "dev.safedefaults";

	private static final JavaClasses MAIN_CLASSES = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages(ROOT);

	private static final Path MAIN_SOURCES = Path.of("src/main/java");

	/** This module's tests, which mirror the main packages. */
	private static final Path MODULE_TEST_SOURCES = Path.of("src/test/java");

	/**
	 * Where a test may name a main type: this module's tests and the repository's system
	 * tests (surefire's working directory is the module's).
	 */
	private static final List<Path> TEST_SOURCES = List.of(MODULE_TEST_SOURCES, Path.of("../src/test/java"));

	/**
	 * This class: it names a few types for its rules, not as the test that covers them,
	 * so it is not counted as a test that names a type.
	 */
	private static final Path THESE_RULES = MODULE_TEST_SOURCES
		.resolve(ArchitectureTests.class.getName().replace('.', '/') + ".java");

	/**
	 * The findings model every feature uses: the one package under the root that is not a
	 * feature.
	 */
	private static final String CHECK = ROOT + ".check..";

	/**
	 * What more than one feature needs (the table of library frames, the Hikari pool
	 * look-up): a layer below the features, which every feature may read and which reads
	 * no feature.
	 */
	private static final String SUPPORT = ROOT + ".support..";

	/**
	 * The stories of a feature: sub-packages that tell one part of the feature once, for
	 * every route, and that a route may read (see
	 * {@link #subPackagesOfAFeatureNeverImportEachOther()}).
	 */
	private static final Set<String> STORIES = Set.of(ROOT + ".logging.stop", ROOT + ".logging.stacktrace");

	private static final int MAX_PACKAGE_LINES = 2000;

	@Test
	void noFeaturePackageImportsAnotherFeature() {
		// A feature is any package directly under the root except check and support:
		// feign, logging, jdbc, configcache, runtime, and whatever comes next (with its
		// sub-packages).
		slices().matching(ROOT + ".(*)..")
			.that(isAFeature())
			.should()
			.notDependOnEachOther()
			.because("one package per feature: a feature shares only through check, support and the root package")
			.check(MAIN_CLASSES);
	}

	/**
	 * Inside a feature, three layers: its root, the base every part reads; its stories
	 * ({@link #STORIES}), each one part of the feature told once for every route, which
	 * read the root only; its routes (every other sub-package: each library the feature
	 * is kept on, with its Micrometer side), which read the root and the stories, never
	 * another route.
	 */
	@Test
	void subPackagesOfAFeatureNeverImportEachOther() {
		classes().that()
			.resideInAPackage(ROOT + ".*.*..")
			.should(notDependOnASiblingSubPackageOfTheirFeature())
			.because("a newcomer who changes one library's route opens one package and touches no other route's, "
					+ "and reads a story without any route")
			.check(MAIN_CLASSES);
	}

	@Test
	void everyStoryIsASubPackageOfAFeature() {
		for (String story : STORIES) {
			assertThat(story.split("\\.")).as(story).hasSize(4);
			assertThat(MAIN_CLASSES.stream().filter((type) -> type.getPackageName().equals(story)))
				.as("classes of the story " + story)
				.isNotEmpty();
		}
	}

	/**
	 * A package a reader can hold: past 2,000 lines (its sub-packages not counted), split
	 * it by the stories it tells.
	 */
	@Test
	void noMainPackageExceedsTwoThousandLines() throws IOException {
		Map<String, Integer> linesPerPackage = new TreeMap<>();
		try (Stream<Path> files = Files.walk(MAIN_SOURCES)) {
			for (Path file : files.filter((path) -> path.toString().endsWith(".java")).toList()) {
				Path relative = MAIN_SOURCES.relativize(file.getParent());
				String packageName = relative.toString().replace(relative.getFileSystem().getSeparator(), ".");
				linesPerPackage.merge(packageName, Files.readAllLines(file, StandardCharsets.UTF_8).size(),
						Integer::sum);
			}
		}
		List<String> over = linesPerPackage.entrySet()
			.stream()
			.filter((entry) -> entry.getValue() > MAX_PACKAGE_LINES)
			.map((entry) -> entry.getKey() + ": " + entry.getValue() + " lines")
			.toList();
		assertThat(linesPerPackage).isNotEmpty();
		assertThat(over).as("main packages over %d lines: split each by the stories it tells", MAX_PACKAGE_LINES)
			.isEmpty();
	}

	/**
	 * Tests follow the code: every main type is named, as a whole word, by a test, either
	 * its own (where it lives) or the one that covers it, whose Javadoc says what of the
	 * type it asserts. A type that no test names is a type nobody can find the test of.
	 */
	@Test
	void everyMainTypeIsNamedByATest() throws IOException {
		Set<String> words = new HashSet<>();
		for (Path root : TEST_SOURCES) {
			for (Path file : javaFiles(root)) {
				if (!file.normalize().equals(THESE_RULES) && isATest(file)) {
					words.addAll(Arrays.asList(Files.readString(file, StandardCharsets.UTF_8).split("\\W+")));
				}
			}
		}
		List<String> types = new ArrayList<>();
		for (Path file : javaFiles(MAIN_SOURCES)) {
			if (!file.getFileName().toString().equals("package-info.java")) {
				types.add(packageName(file.getParent()) + "." + file.getFileName().toString().replace(".java", ""));
			}
		}
		List<String> unnamed = types.stream()
			.filter((type) -> !words.contains(type.substring(type.lastIndexOf('.') + 1)))
			.sorted()
			.toList();
		assertThat(types).isNotEmpty();
		assertThat(words).isNotEmpty();
		assertThat(unnamed)
			.as("main types that no test names: test each where it lives, or name it in the Javadoc "
					+ "of the test that covers it, with what that test asserts of it")
			.isEmpty();
	}

	/** A test class ({@code *Tests}, {@code *IT}), not a benchmark or a test's helper. */
	private static boolean isATest(Path file) {
		String name = file.getFileName().toString();
		return name.endsWith("Tests.java") || name.endsWith("IT.java");
	}

	/**
	 * Each main package has its test package in this module, with at least one test class
	 * ({@code *Tests}) in it.
	 */
	@Test
	void everyMainPackageHasItsTestPackage() throws IOException {
		Set<Path> packages = new TreeSet<>();
		for (Path file : javaFiles(MAIN_SOURCES)) {
			if (!file.getFileName().toString().equals("package-info.java")) {
				packages.add(MAIN_SOURCES.relativize(file.getParent()));
			}
		}
		List<String> untested = new ArrayList<>();
		for (Path relative : packages) {
			if (!holdsATestClass(MODULE_TEST_SOURCES.resolve(relative))) {
				untested.add(packageName(MAIN_SOURCES.resolve(relative)));
			}
		}
		assertThat(packages).isNotEmpty();
		assertThat(untested).as("main packages without a test package holding a *Tests class").isEmpty();
	}

	@Test
	void theRootOfAFeatureNeverImportsItsSubPackages() {
		classes().that()
			.resideInAPackage(ROOT + ".*")
			.should(notDependOnTheirOwnSubPackages())
			.because("what a feature's routes share is written once, in its root, which knows none of them")
			.check(MAIN_CLASSES);
	}

	@Test
	void checkImportsNoFeature() {
		noClasses().that()
			.resideInAPackage(CHECK)
			.should()
			.dependOnClassesThat(resideInAPackage(ROOT + "..").and(not(resideInAnyPackage(ROOT, CHECK))))
			.because("check is the findings model every feature uses; it knows no feature")
			.check(MAIN_CLASSES);
	}

	@Test
	void supportImportsNoFeature() {
		noClasses().that()
			.resideInAPackage(SUPPORT)
			.should()
			.dependOnClassesThat(resideInAPackage(ROOT + "..").and(not(resideInAPackage(SUPPORT))))
			.because("support is what the features share, below them: it knows none of them, nor check")
			.check(MAIN_CLASSES);
	}

	/**
	 * Which Hikari pool a data source is, found one way: a feature that unwraps a data
	 * source itself keeps a second copy of the look-up (issue 50 found one with its own
	 * {@code isWrapperFor}).
	 */
	@Test
	void dataSourcesAreUnwrappedOnlyInSupport() {
		noClasses().that()
			.resideOutsideOfPackage(SUPPORT)
			.should()
			.callMethod(DataSource.class, "unwrap", Class.class)
			.orShould()
			.callMethod(DataSource.class, "isWrapperFor", Class.class)
			.orShould()
			.dependOnClassesThat()
			.haveFullyQualifiedName("org.springframework.boot.jdbc.DataSourceUnwrapper")
			.because("the features share one Hikari pool look-up, support's HikariPools")
			.check(MAIN_CLASSES);
	}

	@Test
	void actuatorAndMicrometerAreImportedOnlyInActuatePackages() {
		noClasses().that()
			.resideOutsideOfPackage(ROOT + "..actuate..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("org.springframework.boot.actuate..", "org.springframework.boot.health..",
					"org.springframework.boot.micrometer..", "io.micrometer..")
			.because("actuator and Micrometer are optional: each feature works without them")
			.check(MAIN_CLASSES);
	}

	@Test
	void packagesHaveNoCycles() {
		slices().matching("dev.(**)").should().beFreeOfCycles().check(MAIN_CLASSES);
	}

	@Test
	void noUtilCommonOrHelperPackages() {
		noClasses().should()
			.resideInAnyPackage("..util..", "..utils..", "..common..", "..helper..", "..helpers..")
			.because("a helper lives beside its only user, or earns a name that says what it is")
			.check(MAIN_CLASSES);
	}

	@Test
	void autoConfigurationsArePublicAndFinal() {
		classes().that()
			.areAnnotatedWith(AutoConfiguration.class)
			.should()
			.bePublic()
			.andShould()
			.haveModifier(JavaModifier.FINAL)
			.check(MAIN_CLASSES);
	}

	/**
	 * The master switch {@code safe-defaults.enabled=false} turns every
	 * auto-configuration off, on the class itself (a switch on each {@code @Bean} method
	 * is forgotten by the next method). The one exception is the auto-configuration meant
	 * to run when the starter is switched off.
	 */
	@Test
	void autoConfigurationsCarryTheMasterSwitch() {
		classes().that()
			.areAnnotatedWith(AutoConfiguration.class)
			.and(not(equivalentTo(StarterSwitchedOffAutoConfiguration.class)))
			.should()
			.beAnnotatedWith(ConditionalOnSafeDefaultsEnabled.class)
			.because("safe-defaults.enabled=false switches the whole starter off")
			.check(MAIN_CLASSES);
	}

	/**
	 * One name per role, so that a newcomer finds a feature's parts by name: a feature's
	 * status line is its {@code XxxFeatureStatus}, an auto-configuration is an
	 * {@code XxxAutoConfiguration}, a properties class an {@code XxxProperties}.
	 */
	@Test
	void namesFollowTheirRole() {
		classes().that()
			.implement(FeatureStatusReporter.class)
			.should()
			.haveSimpleNameEndingWith("FeatureStatus")
			.check(MAIN_CLASSES);
		classes().that()
			.areAnnotatedWith(AutoConfiguration.class)
			.should()
			.haveSimpleNameEndingWith("AutoConfiguration")
			.check(MAIN_CLASSES);
		classes().that()
			.areAnnotatedWith(ConfigurationProperties.class)
			.should()
			.haveSimpleNameEndingWith("Properties")
			.check(MAIN_CLASSES);
	}

	/**
	 * A post-processor's {@code @Bean} method is static, so that creating the
	 * post-processor does not create its configuration class early (Spring Boot's own
	 * architecture rule).
	 */
	@Test
	void postProcessorBeanMethodsAreStatic() {
		methods().that()
			.areAnnotatedWith(Bean.class)
			.and()
			.haveRawReturnType(assignableTo(BeanPostProcessor.class).or(assignableTo(BeanFactoryPostProcessor.class)))
			.should()
			.beStatic()
			.because("an instance @Bean method creates its configuration class before the post-processors run")
			.check(MAIN_CLASSES);
	}

	@Test
	void caseConversionsNameTheirLocale() {
		noClasses().should()
			.callMethod(String.class, "toLowerCase")
			.orShould()
			.callMethod(String.class, "toUpperCase")
			.because("without a Locale they follow the machine's (Turkish: \"TITLE\".toLowerCase() is \"tıtle\")")
			.check(MAIN_CLASSES);
	}

	@Test
	void propertiesClassesCheckTheirRangesThroughPropertyBounds() {
		classes().that()
			.areAnnotatedWith(ConfigurationProperties.class)
			.should(checkTheirRangesThroughPropertyBounds())
			.check(MAIN_CLASSES);
	}

	/**
	 * Per field, not per class: a number, duration or size that no range check reads
	 * (directly, or through its getter) fails, even when the class checks its other
	 * fields.
	 */
	@Test
	void everyBoundedPropertyFieldIsReadByARangeCheck() {
		List<String> unchecked = new ArrayList<>();
		MAIN_CLASSES.stream()
			.filter((type) -> isPropertiesClassOrNested(type))
			.flatMap((type) -> type.getFields().stream())
			.filter((field) -> !field.getModifiers().contains(JavaModifier.STATIC))
			.filter((field) -> isBoundedType(field.getRawType()))
			.filter((field) -> !isReadByARangeCheck(field))
			.forEach((field) -> unchecked.add(field.getFullName()));
		assertThat(unchecked).as("property fields with a number, duration or size that no PropertyBounds call reads")
			.isEmpty();
	}

	/**
	 * Every package of the main code is {@code @NullMarked}, so that NullAway checks it.
	 */
	@Test
	void everyPackageIsNullMarked() {
		List<String> unmarked = MAIN_CLASSES.stream()
			.map(JavaClass::getPackageName)
			.filter((name) -> !name.startsWith(ROOT + ".testsupport"))
			.distinct()
			.filter((name) -> MAIN_CLASSES.stream()
				.noneMatch((type) -> type.getName().equals(name + ".package-info")
						&& type.isAnnotatedWith(NullMarked.class)))
			.sorted()
			.toList();
		assertThat(unmarked).as("packages without a @NullMarked package-info").isEmpty();
	}

	@Test
	void beanMethodsAreOneStatement() throws IOException {
		List<String> beanMethods = new ArrayList<>();
		List<String> longer = new ArrayList<>();
		for (CompilationUnitTree unit : parseMainSources()) {
			new TreeScanner<Void, String>() {

				@Override
				public Void visitClass(ClassTree tree, String outer) {
					return super.visitClass(tree, outer + tree.getSimpleName() + ".");
				}

				@Override
				public Void visitMethod(MethodTree method, String className) {
					if (isBeanMethod(method)) {
						String name = className + method.getName();
						beanMethods.add(name);
						if (method.getBody() == null || method.getBody().getStatements().size() != 1) {
							longer.add(name);
						}
					}
					return super.visitMethod(method, className);
				}

			}.scan(unit, "");
		}
		// The source scan sees every @Bean method that the compiled classes have, so no
		// method escapes it by a spelling of the annotation that it does not know.
		assertThat(beanMethods).hasSize(beanMethodsInClasses());
		assertThat(longer).as("@Bean methods with more than one statement: move the work to the bean's class")
			.isEmpty();
	}

	private static ArchCondition<JavaClass> notDependOnASiblingSubPackageOfTheirFeature() {
		return new ArchCondition<>("not depend on another sub-package of their feature, but a route on a story") {

			@Override
			public void check(JavaClass type, ConditionEvents events) {
				String[] parts = type.getPackageName().split("\\.");
				String subPackage = String.join(".", Arrays.copyOf(parts, 4));
				String feature = String.join(".", Arrays.copyOf(parts, 3));
				for (Dependency dependency : type.getDirectDependenciesFromSelf()) {
					String target = dependency.getTargetClass().getPackageName();
					if (isWithin(target, feature) && !target.equals(feature) && !isWithin(target, subPackage)
							&& !isARouteReadingAStory(subPackage, target)) {
						events.add(SimpleConditionEvent.violated(dependency, dependency.getDescription()));
					}
				}
			}

		};
	}

	/**
	 * Whether a route (a sub-package that is not a story) reads a story of its feature
	 * (the target is a sibling sub-package of it).
	 */
	private static boolean isARouteReadingAStory(String subPackage, String target) {
		return !STORIES.contains(subPackage) && STORIES.stream().anyMatch((story) -> isWithin(target, story));
	}

	private static ArchCondition<JavaClass> notDependOnTheirOwnSubPackages() {
		return new ArchCondition<>("not depend on their own sub-packages") {

			@Override
			public void check(JavaClass type, ConditionEvents events) {
				for (Dependency dependency : type.getDirectDependenciesFromSelf()) {
					String target = dependency.getTargetClass().getPackageName();
					if (target.startsWith(type.getPackageName() + ".")) {
						events.add(SimpleConditionEvent.violated(dependency, dependency.getDescription()));
					}
				}
			}

		};
	}

	private static boolean isWithin(String packageName, String root) {
		return packageName.equals(root) || packageName.startsWith(root + ".");
	}

	private static DescribedPredicate<Slice> isAFeature() {
		return DescribedPredicate.describe("are features (not check, not support)",
				(slice) -> !"check".equals(slice.getNamePart(1)) && !"support".equals(slice.getNamePart(1)));
	}

	private static ArchCondition<JavaClass> checkTheirRangesThroughPropertyBounds() {
		return new ArchCondition<>("check the range of every number, duration and size through PropertyBounds") {

			@Override
			public void check(JavaClass properties, ConditionEvents events) {
				List<JavaClass> classAndNested = MAIN_CLASSES.stream()
					.filter((type) -> type.equals(properties) || type.getName().startsWith(properties.getName() + "$"))
					.toList();
				boolean bounded = classAndNested.stream()
					.flatMap((type) -> type.getFields().stream())
					.filter((field) -> !field.getModifiers().contains(JavaModifier.STATIC))
					.anyMatch((field) -> isBoundedType(field.getRawType()));
				boolean ownException = classAndNested.stream()
					.flatMap((type) -> type.getConstructorCallsFromSelf().stream())
					.anyMatch((call) -> call.getTargetOwner()
						.isEquivalentTo(InvalidConfigurationPropertyValueException.class));
				boolean callsBounds = classAndNested.stream()
					.flatMap((type) -> type.getMethodCallsFromSelf().stream())
					.anyMatch((call) -> call.getTargetOwner().isEquivalentTo(PropertyBounds.class));
				if (ownException) {
					events.add(SimpleConditionEvent.violated(properties,
							properties.getName() + " throws its own range errors instead of calling PropertyBounds"));
				}
				if (bounded && !(properties.isAssignableTo(InitializingBean.class) && callsBounds)) {
					events.add(SimpleConditionEvent.violated(properties, properties.getName()
							+ " has a number, duration or size but does not check it from afterPropertiesSet() through PropertyBounds"));
				}
			}

		};
	}

	private static boolean isPropertiesClassOrNested(JavaClass type) {
		for (JavaClass outer = type; outer != null; outer = outer.getEnclosingClass().orElse(null)) {
			if (outer.isAnnotatedWith(ConfigurationProperties.class)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Whether a method that calls {@link PropertyBounds} reads the field, itself or
	 * through a getter of the field's class.
	 */
	private static boolean isReadByARangeCheck(JavaField field) {
		for (JavaFieldAccess access : field.getAccessesToSelf()) {
			if (access.getAccessType() != JavaFieldAccess.AccessType.GET) {
				continue;
			}
			JavaCodeUnit reader = access.getOrigin();
			if (callsPropertyBounds(reader)) {
				return true;
			}
			if (reader instanceof JavaMethod getter && getter.getOwner().equals(field.getOwner())
					&& getter.getCallsOfSelf().stream().anyMatch((call) -> callsPropertyBounds(call.getOrigin()))) {
				return true;
			}
		}
		return false;
	}

	private static boolean callsPropertyBounds(JavaCodeUnit codeUnit) {
		return codeUnit.getMethodCallsFromSelf()
			.stream()
			.anyMatch((call) -> call.getTargetOwner().isEquivalentTo(PropertyBounds.class));
	}

	private static boolean isBoundedType(JavaClass type) {
		Set<String> numbers = Set.of("int", "long", "short", "double", "float", Integer.class.getName(),
				Long.class.getName(), Short.class.getName(), Double.class.getName(), Float.class.getName(),
				Duration.class.getName(), DataSize.class.getName());
		return numbers.contains(type.getName());
	}

	private static boolean isBeanMethod(MethodTree method) {
		for (AnnotationTree annotation : method.getModifiers().getAnnotations()) {
			String name = annotation.getAnnotationType().toString();
			if (name.equals("Bean") || name.equals(Bean.class.getName())) {
				return true;
			}
		}
		return false;
	}

	private static int beanMethodsInClasses() {
		int count = 0;
		for (JavaClass type : MAIN_CLASSES) {
			for (JavaMethod method : type.getMethods()) {
				if (method.isAnnotatedWith(Bean.class)) {
					count++;
				}
			}
		}
		return count;
	}

	private static List<Path> javaFiles(Path root) throws IOException {
		assertThat(root).as("a source directory, from the module's directory").isDirectory();
		try (Stream<Path> files = Files.walk(root)) {
			return files.filter((file) -> file.toString().endsWith(".java")).sorted().toList();
		}
	}

	/**
	 * The package of a directory of the main sources.
	 */
	private static String packageName(Path directory) {
		Path relative = MAIN_SOURCES.relativize(directory);
		return relative.toString().replace(relative.getFileSystem().getSeparator(), ".");
	}

	private static boolean holdsATestClass(Path directory) throws IOException {
		if (!Files.isDirectory(directory)) {
			return false;
		}
		try (Stream<Path> files = Files.list(directory)) {
			return files.anyMatch((file) -> file.getFileName().toString().endsWith("Tests.java"));
		}
	}

	private static List<CompilationUnitTree> parseMainSources() throws IOException {
		List<Path> sources;
		try (Stream<Path> files = Files.walk(MAIN_SOURCES)) {
			sources = files.filter((file) -> file.toString().endsWith(".java")).toList();
		}
		assertThat(sources).isNotEmpty();
		JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
		try (StandardJavaFileManager fileManager = javac.getStandardFileManager(null, Locale.ROOT,
				StandardCharsets.UTF_8)) {
			JavacTask task = (JavacTask) javac.getTask(null, fileManager, null, List.of("-proc:none"), null,
					fileManager.getJavaFileObjectsFromPaths(sources));
			List<CompilationUnitTree> units = new ArrayList<>();
			task.parse().forEach(units::add);
			return units;
		}
	}

}
