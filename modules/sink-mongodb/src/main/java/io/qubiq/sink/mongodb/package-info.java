/** The MongoDB sink (work in progress). */
package io.qubiq.sink.mongodb;
