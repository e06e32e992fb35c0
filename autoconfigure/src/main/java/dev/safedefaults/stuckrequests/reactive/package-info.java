/**
 * The stuck-request watch on a reactive service (issue 52): Reactor Netty's event loops,
 * each with a heartbeat, named with the frame that blocks one; WebFlux exchanges in
 * flight, named past the threshold with the outbound calls their Reactor context joins.
 */
@NullMarked
package dev.safedefaults.stuckrequests.reactive;

import org.jspecify.annotations.NullMarked;
