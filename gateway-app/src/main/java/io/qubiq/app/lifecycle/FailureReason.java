package io.qubiq.app.lifecycle;

import java.nio.file.FileSystemException;
import java.util.ArrayList;
import java.util.List;

/**
 * Why a component failed, in one line an operator can act on: the messages along the cause chain,
 * so a wrapped file-system error keeps its path and its OS reason ({@code opening buffer
 * /data/connections/db/buffer failed: /data/connections/db/buffer: Not a directory}). A cause whose
 * message says nothing by itself (none, or a bare path as in {@code FileAlreadyExistsException}) is
 * named by its type; a cause that a wrapper's message already quotes is not repeated.
 */
final class FailureReason {

    private static final int MAX_CAUSES = 5;

    private FailureReason() {
    }

    static String of(Throwable error) {
        List<String> parts = new ArrayList<>();
        String text = "";
        Throwable current = error;
        for (int depth = 0; current != null && depth < MAX_CAUSES; depth++, current = current.getCause()) {
            String part = describe(current);
            if (text.contains(part) || text.contains(current.toString())) {
                continue; // a wrapper already quoted this cause
            }
            parts.add(part);
            text = String.join(": ", parts);
        }
        return text;
    }

    private static String describe(Throwable error) {
        String message = error.getMessage();
        String type = error.getClass().getSimpleName();
        if (message == null || message.isBlank()) {
            return type;
        }
        if (error instanceof FileSystemException fs && fs.getReason() == null) {
            return message + " (" + type + ")";
        }
        return message;
    }
}
