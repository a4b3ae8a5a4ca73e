/** The MQTT sink (work in progress). */
package io.qubiq.sink.mqtt;
