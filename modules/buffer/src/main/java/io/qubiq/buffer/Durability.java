package io.qubiq.buffer;

/** When appended records reach stable storage. Every mode survives {@code kill -9}. */
public enum Durability {
  /** Page cache only: survives a process crash, may lose recent records on power loss. */
  NONE,
  /** A background fsync every {@link BufferOptions#periodicFsyncIntervalMs()}. */
  PERIODIC,
  /** An append returns only after an fsync; concurrent appenders share one (group commit). */
  ALWAYS
}
