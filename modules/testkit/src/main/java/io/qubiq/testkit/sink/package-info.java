/** The contract suite every sink's test runs against a real server of its kind. */
package io.qubiq.testkit.sink;
