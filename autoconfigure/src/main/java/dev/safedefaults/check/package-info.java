/**
 * The check pipeline: {@link dev.safedefaults.check.Check}s, the runner, the
 * {@link dev.safedefaults.check.FindingsStore}, the findings catalogue and the secret
 * masking routine. It knows no feature: features contribute checks, finding declarations,
 * status reporters and the display forms of their URLs
 * ({@link dev.safedefaults.check.UrlDisplayForm}), and this package runs, stores, masks
 * and reports them.
 *
 * <h2>One pattern per concern (follow it in every feature package)</h2>
 * <ul>
 * <li><b>Findings.</b> Each feature package has one {@code <Feature>Findings} class
 * implementing {@link dev.safedefaults.check.FindingDeclarations}, listed in
 * {@code META-INF/spring.factories}. It declares every id once with its severity, its
 * catalogue title, its message template and its fix
 * ({@link dev.safedefaults.check.FindingType#declare}); a finding that can arise in
 * several ways declares a {@link dev.safedefaults.check.FindingType#because variant} per
 * way, so that its message and fix are true for that way. Raising code builds findings
 * only with {@link dev.safedefaults.check.FindingType#raise}: no id literal, no copied
 * fix text, no second severity (the store refuses one). The catalogue row
 * (docs/findings.md) and the IDE hint of {@code safe-defaults.checks.disabled} are
 * checked against the declaration by {@code DocumentationTests}. One cause gives one
 * finding.</li>
 * <li><b>Publishing.</b> A source publishes through
 * {@link dev.safedefaults.check.FindingsStore#update} (or takes
 * {@link dev.safedefaults.check.FindingsStore#nextGeneration} before it computes): an
 * older result never replaces a newer one.</li>
 * <li><b>Properties.</b> A {@code <Feature>Properties} class checks itself in
 * {@code afterPropertiesSet()} (it implements {@code InitializingBean}, as Boot's
 * {@code DataSourceProperties} does) with {@link dev.safedefaults.PropertyBounds}: every
 * duration, size and count has a lower and an upper bound, and the error names the
 * property, the value and the range. {@code @Bean} methods stay one statement and never
 * validate.</li>
 * <li><b>Feature status.</b> Each feature has one class implementing
 * {@link dev.safedefaults.check.FeatureStatusReporter} (no lambdas) returning the one
 * shape {@link dev.safedefaults.check.FeatureStatus}, with a short
 * {@link dev.safedefaults.check.FeatureStatus#scope scope} for the startup line.</li>
 * <li><b>Bean names.</b> Every bean the starter defines is named {@code safeDefaults…}
 * (its {@code @Bean} method's name).</li>
 * <li><b>Metrics and health.</b> Classes that need Actuator or Micrometer live in the
 * feature's {@code actuate} sub-package, in their own small auto-configuration.</li>
 * <li><b>Endpoint responses</b> are records, serialised by Boot's JSON support; never a
 * {@code Map<String, Object>}.</li>
 * <li><b>Nullness.</b> Every package is {@code @NullMarked} (JSpecify); {@code @Nullable}
 * marks each parameter, return value and field that may be {@code null}.</li>
 * </ul>
 */
@NullMarked
package dev.safedefaults.check;

import org.jspecify.annotations.NullMarked;
