package io.qubiq.app.config;

import io.qubiq.config.revision.ConfigRevisions;
import io.qubiq.config.revision.LineDiff;
import io.qubiq.config.revision.Revision;
import io.qubiq.console.ConfigChanges.RevisionDetail;
import io.qubiq.console.ConfigChanges.RevisionSummary;
import io.qubiq.console.ConfigChanges.RollbackPreview;
import io.qubiq.console.ConfigChanges.Stale;
import io.qubiq.console.RequestFailure;
import java.io.IOException;
import java.util.Optional;

/**
 * What the kept revisions show a reader: a revision found by its number or name, its summary, its text,
 * and the line diffs between texts with every secret key's value masked ({@link SecretText}): a revision's
 * diff from its parent, a rollback's preview, and the {@link Stale} answer to a change made on a revision
 * the file has moved on from. Reads the revision store and writes nothing. Immutable; safe to share.
 */
final class RevisionViews {

    private static final int CONTEXT_LINES = 3;

    private final SecretText secrets;

    RevisionViews(SecretText secrets) {
        this.secrets = secrets;
    }

    /**
     * Revision {@code id}: its number, its token or its name.
     *
     * @throws RequestFailure.NotFound no kept revision has it
     */
    static Revision find(ConfigRevisions store, String id) {
        String key = id.startsWith(OnDisk.SHA) ? id.substring(OnDisk.SHA.length()) : id;
        return store.find(key).orElseThrow(() -> new RequestFailure.NotFound("no kept revision '" + id
                + "': name one by its number or its sha256 token (GET /api/v1/config/revisions)"));
    }

    /**
     * The text of {@code revision}.
     *
     * @throws RequestFailure.Fault it cannot be read
     */
    static String text(ConfigRevisions store, Revision revision) {
        try {
            return store.text(revision);
        } catch (IOException e) {
            throw new RequestFailure.Fault("cannot read revision " + revision.number() + ": " + e.getMessage());
        }
    }

    static RevisionSummary summary(Revision r) {
        return new RevisionSummary(r.number(), OnDisk.revisionOf(r.token()), r.parent().orElse(null), r.author(),
                r.at(), r.source(), r.comment());
    }

    /** Revision {@code id} with its diff from its parent (or the revision before it); none for the first. */
    RevisionDetail detail(ConfigRevisions store, String id) {
        Revision revision = find(store, id);
        long parentNumber = revision.parent().orElse(revision.number() - 1);
        String diff = "";
        Optional<Revision> parent = store.find(String.valueOf(parentNumber));
        try {
            if (parent.isPresent()) {
                diff = maskedDiff(store.text(parent.get()), store.text(revision));
            }
        } catch (IOException e) {
            throw new RequestFailure.Fault("cannot read revision " + revision.number() + ": " + e.getMessage());
        }
        return new RevisionDetail(summary(revision), diff);
    }

    /** What rolling the file {@code disk} back to {@code target} would change; nothing is written. */
    RollbackPreview rollbackPreview(ConfigRevisions store, Revision target, OnDisk disk) {
        String text = text(store, target);
        return new RollbackPreview(summary(target), disk.revision(),
                text.equals(disk.text()) ? "" : maskedDiff(disk.text(), text));
    }

    /**
     * The answer to a change made on revision {@code base} while the file is at {@code disk}: with the diff
     * since, when {@code base} names a kept revision by its token (none when that cannot be read).
     */
    Stale stale(ConfigRevisions store, String base, OnDisk disk) {
        String hex = base.startsWith(OnDisk.SHA) ? base.substring(OnDisk.SHA.length()) : base;
        String diff = "";
        Optional<Revision> known = hex.length() >= 8 ? store.find(hex) : Optional.empty();
        if (known.isPresent() && known.get().token().equals(hex)) {
            try {
                diff = maskedDiff(store.text(known.get()), disk.text());
            } catch (IOException e) {
                diff = "";
            }
        }
        return new Stale("the change was made on revision " + base + ", but the file is at " + disk.revision()
                + " now: read the configuration again, look at what changed, and make the change again",
                disk.revision(), diff);
    }

    private String maskedDiff(String before, String after) {
        return LineDiff.unified(secrets.mask(before), secrets.mask(after), CONTEXT_LINES);
    }
}
