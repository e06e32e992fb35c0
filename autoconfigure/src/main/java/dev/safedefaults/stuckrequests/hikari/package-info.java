/**
 * The stuck-request watch on Hikari: which pools requests wait on, read through its pool
 * bean.
 */
@NullMarked
package dev.safedefaults.stuckrequests.hikari;

import org.jspecify.annotations.NullMarked;
