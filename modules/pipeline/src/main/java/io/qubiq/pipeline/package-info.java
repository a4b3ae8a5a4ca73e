/** Pipelines (work in progress). */
package io.qubiq.pipeline;
