/**
 * SQL over QuestDB's HTTP {@code /exec} endpoint: a small client, the one JSON reader of its
 * answers, and the quoting rules every statement built for it must follow. Used by the historian,
 * the application's history access and the testkit's QuestDB server.
 */
package io.qubiq.questdb.exec;
