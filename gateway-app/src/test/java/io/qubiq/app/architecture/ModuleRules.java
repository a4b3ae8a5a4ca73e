package io.qubiq.app.architecture;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The module map of docs/ARCHITECTURE.md as data: for each module's root package, the packages its
 * classes may use. Dependencies point inward, to the core; only the application knows everything.
 * When a module is added, it is added here and in the document together.
 */
final class ModuleRules {

    static final String JDK = "java..";
    static final String CORE = "io.qubiq.core..";
    static final String SLF4J = "org.slf4j..";
    static final String FILE_OPS = "io.qubiq.fileops..";
    /** modules/questdb-common: SQL over /exec, its JSON, the QuestDB child-JVM launcher. */
    static final String QUESTDB_COMMON = "io.qubiq.questdb..";

    /** Module root package -> what it may depend on (besides its own package). */
    static final Map<String, List<String>> ALLOWED = new LinkedHashMap<>();

    static {
        ALLOWED.put("io.qubiq.core", List.of(JDK));
        ALLOWED.put("io.qubiq.fileops", List.of(JDK));
        ALLOWED.put("io.qubiq.questdb", List.of(JDK));
        ALLOWED.put("io.qubiq.buffer", List.of(JDK, FILE_OPS));
        ALLOWED.put("io.qubiq.tagbus", List.of(JDK, CORE, SLF4J));
        ALLOWED.put("io.qubiq.storeforward", List.of(JDK, CORE, SLF4J, "io.qubiq.buffer..", FILE_OPS));
        ALLOWED.put("io.qubiq.audit", List.of(JDK, CORE, SLF4J, "io.qubiq.storeforward..", "io.qubiq.buffer..",
                FILE_OPS));
        ALLOWED.put("io.qubiq.losses", List.of(JDK, CORE, FILE_OPS, SLF4J));
        ALLOWED.put("io.qubiq.sink.questdb", List.of(JDK, CORE, SLF4J, "io.questdb.client.."));
        ALLOWED.put("io.qubiq.sink.sql", List.of(JDK, CORE, SLF4J, "com.zaxxer.hikari..", "org.postgresql.."));
        ALLOWED.put("io.qubiq.sink.mongodb", List.of(JDK, CORE, SLF4J, "com.mongodb..", "org.bson.."));
        ALLOWED.put("io.qubiq.mqtt", List.of(JDK, CORE, "com.hivemq.client.."));
        ALLOWED.put("io.qubiq.sink.mqtt", List.of(JDK, CORE, SLF4J, "io.qubiq.mqtt..", "com.hivemq.client..", "io.netty.."));
        ALLOWED.put("io.qubiq.pipeline", List.of(JDK, CORE, SLF4J, "io.qubiq.tagbus..", "io.qubiq.storeforward..",
                "io.qubiq.buffer..", "org.apache.commons.jexl3..", FILE_OPS));
        ALLOWED.put("io.qubiq.connector.opcua", List.of(JDK, CORE, SLF4J, "org.eclipse.milo..", "io.netty..",
                "com.google.common..", FILE_OPS));
        ALLOWED.put("io.qubiq.connector.mqtt", List.of(JDK, CORE, SLF4J, "io.qubiq.mqtt..", "com.hivemq.client..",
                "com.fasterxml.jackson..", "io.netty.."));
        ALLOWED.put("io.qubiq.historian", List.of(JDK, CORE, SLF4J, "io.qubiq.tagbus..", "io.qubiq.storeforward..",
                "io.qubiq.buffer..", "io.qubiq.sink.questdb..", QUESTDB_COMMON));
        ALLOWED.put("io.qubiq.demoplant", List.of(JDK, CORE, SLF4J, "org.eclipse.milo..", "io.netty..",
                "com.google.common..", "com.hivemq.embedded..", "com.hivemq.configuration.service..",
                "com.hivemq.extension.sdk.api..",
                "com.hivemq.client..", "com.fasterxml.jackson.."));
        ALLOWED.put("io.qubiq.config", List.of(JDK, CORE, "org.yaml.snakeyaml..", FILE_OPS));
        ALLOWED.put("io.qubiq.auth", List.of(JDK, CORE, SLF4J, "com.password4j..", FILE_OPS));
        ALLOWED.put("io.qubiq.console", List.of(JDK, CORE, SLF4J, "io.qubiq.auth..", "io.javalin..", "com.fasterxml.jackson..",
                "io.micrometer..", "jakarta.servlet..", "org.eclipse.jetty..", "kotlin.."));
    }

    private ModuleRules() {
    }
}
