/**
 * The file-operations seam under every store ({@link io.qubiq.fileops.FileOps}) and its real
 * implementation. JDK only: the lowest module, so that the buffer, the quarantine, the audit
 * journal, pipeline state and the user store can all write through it.
 */
package io.qubiq.fileops;
