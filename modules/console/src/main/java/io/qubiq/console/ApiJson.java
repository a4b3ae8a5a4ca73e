package io.qubiq.console;

import io.qubiq.core.tag.TagValue;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** The JSON shapes of the API, as records so that the wire format is declared in one place. */
final class ApiJson {

    private ApiJson() {
    }

    record Tag(String path, Object value, String type, String quality, String qualityCode, Instant sourceTime,
               Instant serverTime) {
        static Tag of(TagValue v) {
            return new Tag(v.path().value(), v.value(), v.type().name(), v.quality().label(),
                    String.format("0x%08X", v.quality().code()), v.sourceTime(), v.serverTime());
        }
    }

    record WriteRequest(Object value) {
    }

    record WriteResult(String tag, boolean accepted, String status, String statusCode, @MayBeNull String message) {
    }

    record Certificates(String connection, String directory, List<DeviceAccess.Certificate> certificates) {
    }

    record Trusted(String connection, DeviceAccess.Certificate certificate, String message) {
    }

    record Device(String id, String type, String state, Instant since, @MayBeNull String lastError, Map<String, Long> counters,
                  int tags, boolean browsable, boolean certificates, List<String> warnings) {
        static Device of(DeviceAccess.Device d) {
            return new Device(d.id(), d.type(), d.status().state().name(), d.status().since(),
                    d.status().lastError().orElse(null), d.counters(), d.tags(), d.browsable(), d.certificates(),
                    d.warnings());
        }
    }
}
