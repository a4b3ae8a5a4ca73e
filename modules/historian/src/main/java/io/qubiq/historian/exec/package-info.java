/**
 * SQL over QuestDB's HTTP {@code /exec} endpoint: a small client, its JSON reader and the quoting
 * rules every statement the historian builds must follow.
 */
package io.qubiq.historian.exec;
