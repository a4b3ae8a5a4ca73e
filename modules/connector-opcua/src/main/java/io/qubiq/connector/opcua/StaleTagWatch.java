package io.qubiq.connector.opcua;

import io.qubiq.core.tag.Quality;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Marks frozen values. A tag whose value has not changed for {@code staleAfter} while its source
 * still says Good is republished with quality UncertainLastUsableValue (value and source time
 * kept). A changed value, or any non-Good quality, clears the mark; a repeated read of the frozen
 * value (polling) stays Uncertain. A zero duration disables the watch.
 *
 * <p>Thread-safe: values are admitted from Milo's delivery threads and the poller, swept from the
 * connector thread; each tag's state is updated atomically.
 */
final class StaleTagWatch {

    private record Entry(TagValue last, Instant changedAt, boolean stale) {
    }

    private final Duration staleAfter;
    private final Map<TagPath, Entry> entries = new ConcurrentHashMap<>();

    StaleTagWatch(Duration staleAfter) {
        this.staleAfter = staleAfter;
    }

    boolean enabled() {
        return !staleAfter.isZero();
    }

    /** Records a value from the device and returns what to publish for it. */
    TagValue admit(TagValue value, Instant now) {
        if (!enabled()) {
            return value;
        }
        Entry entry = entries.compute(value.path(), (path, previous) -> {
            boolean unchanged = previous != null && Objects.equals(previous.last.value(), value.value())
                    && previous.last.quality().equals(value.quality());
            if (!unchanged) {
                return new Entry(value, now, false);
            }
            return new Entry(value, previous.changedAt, previous.stale);
        });
        return entry.stale && value.quality().isGood() ? value.withQuality(Quality.UNCERTAIN_LAST_USABLE_VALUE, now) : value;
    }

    /** Values that turned stale since the last sweep, already marked; each is returned once. */
    List<TagValue> sweep(Instant now) {
        List<TagValue> turned = new ArrayList<>();
        if (!enabled()) {
            return turned;
        }
        for (TagPath path : entries.keySet()) {
            entries.computeIfPresent(path, (p, entry) -> {
                boolean frozen = entry.last.quality().isGood() && !entry.stale
                        && !entry.changedAt.plus(staleAfter).isAfter(now);
                if (!frozen) {
                    return entry;
                }
                turned.add(entry.last.withQuality(Quality.UNCERTAIN_LAST_USABLE_VALUE, now));
                return new Entry(entry.last, entry.changedAt, true);
            });
        }
        return turned;
    }
}
