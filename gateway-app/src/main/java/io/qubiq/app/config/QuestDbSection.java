package io.qubiq.app.config;

import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Range;
import io.qubiq.sink.questdb.QuestDbSinkConfig;

/** The QuestDB server the historian writes to. */
@Doc("The QuestDB server the historian writes to: started by the gateway (embedded) or an existing one.")
public record QuestDbSection(
        @Doc("Start QuestDB as a child process of the gateway, with its data in <data-dir>/questdb, from the"
                + " QuestDB jar shipped with the gateway (gateway-app/target/lib). It stops with the gateway. Its HTTP"
                + " and PostgreSQL ports need the user admin and a password generated on first start and kept in the"
                + " secrets store as embedded-questdb-password (docs/security.md).")
        @Default("false")
        boolean embedded,

        @Doc("Embedded only: the HTTP port (ILP writes, SQL, QuestDB's web console), on 127.0.0.1. 0 picks a"
                + " free port at start.")
        @Default("9000")
        @Range(min = 0, max = 65535)
        int embeddedHttpPort,

        @Doc("Embedded only: the PostgreSQL wire port, on 127.0.0.1. 0 picks a free port at start.")
        @Default("8812")
        @Range(min = 0, max = 65535)
        int embeddedPgPort,

        @Doc("Embedded only: the QuestDB process's maximum Java heap.")
        @Default("512")
        @Range(min = 128, max = 65536)
        int embeddedMaxHeapMb,

        @Doc("How the gateway reaches QuestDB: address, TLS, credentials, timeouts. With embedded: true the"
                + " address and credentials are the embedded server's and this key's address, token, username and"
                + " password are ignored.")
        QuestDbSinkConfig client) {
}
