package io.qubiq.app.config;

import io.qubiq.core.config.ConfigChecked;
import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Range;
import io.qubiq.core.disk.FreeSpaceThreshold;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

@Doc("Free disk space of the data directory (and of the embedded QuestDB's directory): watched, shown on the"
        + " console, /health and /metrics, alarmed. See docs/operations.md.")
public record DiskConfig(
        @Doc("Below this much free space the disk-space alarm is raised as a warning. A percentage of the file"
                + " system (\"10%\") or a size (\"2GiB\", \"500MB\"; KB, MB, GB, TB are powers of 1000, KiB, MiB,"
                + " GiB, TiB of 1024).")
        @Default("10%")
        String warningFree,

        @Doc("Below this much free space the disk is critical: the alarm turns critical, /health lists the"
                + " disk as DEGRADED and no store-and-forward buffer grows any more (each behaves as at its"
                + " max_bytes, dropping its oldest items or refusing new ones per its overflow_policy, with the"
                + " reason \"disk almost full\"). Written like warning_free.")
        @Default("5%")
        String criticalFree,

        @Doc("How often free space is sampled.")
        @Default("5000")
        @Range(min = 100, max = 3600000)
        long checkIntervalMs) implements ConfigChecked {

    public FreeSpaceThreshold warning() {
        return FreeSpaceThreshold.parse(warningFree);
    }

    public FreeSpaceThreshold critical() {
        return FreeSpaceThreshold.parse(criticalFree);
    }

    @Override
    public List<Violation> violations() {
        List<Violation> violations = new ArrayList<>();
        Optional<FreeSpaceThreshold> warning = parsed("warning_free", warningFree, violations);
        Optional<FreeSpaceThreshold> critical = parsed("critical_free", criticalFree, violations);
        if (warning.isPresent() && critical.isPresent()) {
            FreeSpaceThreshold w = warning.get();
            FreeSpaceThreshold c = critical.get();
            boolean above = w.percent().isPresent() && c.percent().isPresent() && c.percent().get() > w.percent().get()
                    || w.bytes().isPresent() && c.bytes().isPresent() && c.bytes().get() > w.bytes().get();
            if (above) {
                violations.add(new Violation("critical_free", "must not be more than warning_free (" + w
                        + "): the critical threshold is the lower one, got \"" + c + "\""));
            }
        }
        return violations;
    }

    private static Optional<FreeSpaceThreshold> parsed(String key, String text, List<Violation> violations) {
        try {
            return Optional.of(FreeSpaceThreshold.parse(text));
        } catch (IllegalArgumentException e) {
            violations.add(new Violation(key, e.getMessage()));
            return Optional.empty();
        }
    }
}
