package dev.safedefaults.stuckrequests;

/**
 * What one stuck request waits on: its kind, and what it waits on in words (a host and
 * port with the client library, a pool, a lock and its holder), with the code that waits.
 * Two requests with the same kind and target are the same wait.
 *
 * @param kind the kind of wait
 * @param target what it waits on, for example
 * {@code 127.0.0.1:8081 (JDK HttpClient via RestClient)}
 * @param site the first application frame, or the top frame when there is none
 */
record Wait(WaitKind kind, String target, String site) {

}
