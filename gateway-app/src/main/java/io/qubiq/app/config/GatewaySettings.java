package io.qubiq.app.config;

import io.qubiq.core.config.ConfigChecked;
import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

@Doc("Who this gateway is.")
public record GatewaySettings(
        @Doc("A name for this gateway, shown in the console header, on /health and in logs.")
        @Default("Qubiq gateway")
        String name,

        @Doc("This gateway's identity in stores it may share with other gateways: the gateway column of every"
                + " history row, part of the history tables' dedup keys, so gateways writing into one QuestDB keep"
                + " each other's samples. Left out, the name is used. Give every gateway that shares a QuestDB its"
                + " own; changing it later makes new rows carry the new identity (queries read all of them).")
        Optional<String> id) implements ConfigChecked {

    /** The identity written to history rows: {@code id}, else {@code name}. */
    public String identity() {
        return id.orElse(name);
    }

    @Override
    public List<Violation> violations() {
        List<Violation> violations = new ArrayList<>();
        if (identity().isBlank()) {
            violations.add(new Violation(id.isPresent() ? "id" : "name", "must not be blank: it identifies this"
                    + " gateway's rows in the history tables"));
        }
        return violations;
    }
}
