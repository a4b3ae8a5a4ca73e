/**
 * Time for intervals: {@link io.qubiq.core.time.Ticker}, a monotonic clock behind an interface so
 * that tests can move it by hand ({@link io.qubiq.core.time.ManualTicker}). Durations (minimum
 * intervals, heartbeats, timers, rates, backoff, idle timeouts) are measured on a ticker; the wall
 * clock only stamps values, so a wall clock stepped back or forward does not stop or rush them.
 */
package io.qubiq.core.time;
