/**
 * The stuck-request watch on the servlet API and Spring MVC: each request noted by a
 * filter, its endpoint by an interceptor.
 */
@NullMarked
package dev.safedefaults.stuckrequests.servlet;

import org.jspecify.annotations.NullMarked;
