/** The contract of device connections: values in through a publisher, writes out to the device. */
package io.qubiq.core.connector;
