/** The SQL sink (work in progress). */
package io.qubiq.sink.sql;
