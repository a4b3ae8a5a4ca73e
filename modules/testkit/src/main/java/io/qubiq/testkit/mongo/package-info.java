/**
 * A real MongoDB wire-protocol server for tests: {@link io.qubiq.testkit.mongo.MongoTestServer}
 * (mongo-java-server with its memory backend on a free loopback port; stop and restart on the same
 * port with the data kept) and {@link io.qubiq.testkit.mongo.MongoServerExtension}, which starts one
 * per test class.
 */
package io.qubiq.testkit.mongo;
