/**
 * The configuration file's history: {@link io.qubiq.config.revision.ConfigRevisions} writes a change to
 * the file (atomically, only on the revision it was made on) and keeps each version with who, when and
 * why; {@link io.qubiq.config.revision.LineDiff} shows what changed between two. Hand edits of the file
 * become revisions of their own.
 */
package io.qubiq.config.revision;
