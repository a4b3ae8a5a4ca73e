package io.qubiq.console;

import io.qubiq.auth.Permission;
import io.qubiq.core.event.AlarmEvent;
import java.time.Instant;
import java.util.List;

/** {@code GET /api/v1/alarms}: active alarms and the latest raises and clears (View connections). */
public final class AlarmRoutes implements ApiRoutes {

    /** An alarm as the API shows it; {@code kind} names its record, such as {@code BufferPressureAlarm}. */
    record AlarmView(String kind, String key, String source, String severity, boolean active, Instant at,
                     String message) {
        static AlarmView of(AlarmEvent event) {
            return new AlarmView(event.getClass().getSimpleName(), event.key(), event.source(),
                    event.severity().name(), event.active(), event.at(), event.message());
        }
    }

    record Alarms(List<AlarmView> active, List<AlarmView> recent) {
    }

    private final AlarmAccess alarms;

    public AlarmRoutes(AlarmAccess alarms) {
        this.alarms = alarms;
    }

    @Override
    public void register(Api api) {
        api.get("/api/v1/alarms", Access.to(Permission.VIEW_CONNECTIONS), "Active alarms and the latest raises and clears",
                Reply.json(Alarms.class), ctx -> new Alarms(alarms.active().stream().map(AlarmView::of).toList(),
                        alarms.recent().stream().map(AlarmView::of).toList()));
    }
}
