/**
 * Spring MVC's resource chain (incident 1 in Spring's own web layer, issue 35): the
 * lookup paths that are not resources, remembered for the locations that cannot change
 * while the application runs, and {@link dev.safedefaults.web.WebFindings}.
 */
@NullMarked
package dev.safedefaults.web;

import org.jspecify.annotations.NullMarked;
