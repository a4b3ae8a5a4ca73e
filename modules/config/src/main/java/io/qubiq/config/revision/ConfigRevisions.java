package io.qubiq.config.revision;

import io.qubiq.fileops.FileOps;
import io.qubiq.fileops.StoreFormat;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The configuration file and the history of the changes made to it through the gateway. The file
 * stays the source of truth and keeps working when edited by hand; this store keeps what it looked
 * like after each change, who made it, when and why, so a change can be shown as a diff and undone.
 *
 * <p><b>Layout</b> of the revisions directory (in the data directory):
 * <pre>
 *   FORMAT               qubiq-config-revisions format 1
 *   000007.yaml          the whole configuration file as revision 7 left it, byte for byte
 *   000007.properties    number, token (SHA-256 of those bytes), parent, author, at, source, comment
 *   unapplied/           revisions whose file write never happened (a crash between the two writes)
 *   corrupt/             revision files that could not be read back, set aside at open
 * </pre>
 *
 * <p><b>Invariants.</b> Numbers only grow. After {@link #open} and after every {@link #commit} the
 * file's bytes are the newest revision's bytes: a file found changed on disk is recorded as a
 * revision of source {@code file} first. A revision's {@code .yaml} hashes to its token.
 *
 * <p><b>A commit</b> checks that the file is still at the revision the change was made on (else
 * {@link StaleRevisionException}, nothing written), writes the revision's two files (temp, fsync,
 * rename) and fsyncs the directory, then replaces the configuration file the same way (temp in the
 * file's own directory with the file's permissions, fsync, rename, fsync of that directory).
 *
 * <p><b>What a crash leaves.</b> Before the revision's rename: a {@code .tmp}, deleted at open.
 * Between the revision and the file: a newest revision whose parent is what the file still holds;
 * open moves it to {@code unapplied/} (it never was the configuration). After: a complete commit.
 *
 * <p>Keeps the newest {@code keep} revisions; older ones are deleted after a commit.
 *
 * <p><b>Threading.</b> Every method is synchronized; the store assumes it is the only writer of its
 * directory (one gateway per data directory, which the gateway's lock ensures).
 */
public final class ConfigRevisions {

    static final StoreFormat FORMAT = new StoreFormat("qubiq-config-revisions", "configuration revisions", 1);

    private final Path file;
    private final Path dir;
    private final FileOps files;
    private final Clock clock;
    private final int keep;
    private final List<Revision> revisions = new ArrayList<>();
    private int setAside;

    private ConfigRevisions(Path file, Path dir, FileOps files, Clock clock, int keep) {
        this.file = file;
        this.dir = dir;
        this.files = files;
        this.clock = clock;
        this.keep = keep;
    }

    /**
     * Opens (or creates) the revisions of {@code configFile} in {@code dir}, recording the file as a
     * new revision when it matches none (first start, or edited by hand since).
     *
     * @throws io.qubiq.fileops.NewerFormatException the directory was written by a newer gateway
     * @throws IOException the file or the directory cannot be read or written
     */
    public static ConfigRevisions open(Path configFile, Path dir, FileOps files, Clock clock, int keep)
            throws IOException {
        if (keep < 2) {
            throw new IllegalArgumentException("keep at least 2 revisions, not " + keep);
        }
        files.createDirectories(dir);
        FORMAT.record(dir, FORMAT.check(dir), files);
        ConfigRevisions store = new ConfigRevisions(configFile, dir, files, clock, keep);
        store.load();
        store.reconcile();
        return store;
    }

    /** The revision the file is at. */
    public synchronized Revision current() {
        return revisions.get(revisions.size() - 1);
    }

    /** Every kept revision, newest first. */
    public synchronized List<Revision> list() {
        List<Revision> newestFirst = new ArrayList<>(revisions);
        Collections.reverse(newestFirst);
        return newestFirst;
    }

    /** The revision with this number, or whose token is or starts with {@code id} (at least 8 characters). */
    public synchronized Optional<Revision> find(String id) {
        for (Revision revision : revisions) {
            if (String.valueOf(revision.number()).equals(id) || id.length() >= 8 && revision.token().startsWith(id)) {
                return Optional.of(revision);
            }
        }
        return Optional.empty();
    }

    /** The file as {@code revision} left it. */
    public synchronized String text(Revision revision) throws IOException {
        return Files.readString(yaml(revision.number()), StandardCharsets.UTF_8);
    }

    /** How many revision files open could not read back and moved to {@code corrupt/}. */
    public synchronized int setAside() {
        return setAside;
    }

    /**
     * Records the file as a new revision if it changed on disk since the newest one (a hand edit before
     * a reload); answers the revision the file is at either way.
     */
    public synchronized Revision recordFileIfChanged() throws IOException {
        reconcile();
        return current();
    }

    /**
     * Writes {@code text} as the configuration file, made on revision {@code baseToken}; see the class
     * doc. Writing the text the file already holds changes nothing and answers the current revision.
     *
     * @throws StaleRevisionException the file is no longer at {@code baseToken}
     * @throws IOException a write failed; the file is then as it was (a revision may have been
     *                     written: the next open sets it aside as unapplied)
     */
    public synchronized Revision commit(String text, String baseToken, String author, String source, String comment)
            throws StaleRevisionException, IOException {
        byte[] onDisk = Files.readAllBytes(file);
        String fileToken = token(onDisk);
        if (!fileToken.equals(baseToken)) {
            throw new StaleRevisionException(baseToken, fileToken, new String(onDisk, StandardCharsets.UTF_8));
        }
        if (!fileToken.equals(current().token())) {
            reconcile(); // a hand edit the store has not seen: it becomes a revision before this one
        }
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        String token = token(bytes);
        if (token.equals(fileToken)) {
            return current();
        }
        Revision revision = new Revision(current().number() + 1, token, Optional.of(current().number()), author,
                clock.instant(), source, comment);
        writeRevision(revision, bytes);
        replaceFile(bytes);
        revisions.add(revision);
        prune();
        return revision;
    }

    /** The SHA-256 of {@code bytes}, lower-case hex: a revision's token. */
    public static String token(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    private void load() throws IOException {
        try (Stream<Path> listing = Files.list(dir)) {
            for (Path tmp : listing.filter(p -> p.getFileName().toString().endsWith(".tmp")).toList()) {
                files.deleteIfExists(tmp);
            }
        }
        List<Path> metadata;
        try (Stream<Path> listing = Files.list(dir)) {
            metadata = listing.filter(p -> p.getFileName().toString().matches("[0-9]{6,}\\.properties")).sorted()
                    .toList();
        }
        for (Path properties : metadata) {
            Optional<Revision> revision = read(properties);
            if (revision.isPresent()) {
                revisions.add(revision.get());
            } else {
                long number = Long.parseLong(properties.getFileName().toString().replace(".properties", ""));
                moveAside(number, "corrupt");
                setAside++;
            }
        }
        revisions.sort((x, y) -> Long.compare(x.number(), y.number()));
    }

    private Optional<Revision> read(Path properties) {
        try {
            Properties values = new Properties();
            values.load(new StringReader(Files.readString(properties, StandardCharsets.UTF_8)));
            long number = Long.parseLong(values.getProperty("number"));
            String token = values.getProperty("token");
            byte[] bytes = Files.readAllBytes(yaml(number));
            if (token == null || !token.equals(token(bytes))) {
                return Optional.empty();
            }
            String parent = values.getProperty("parent", "");
            return Optional.of(new Revision(number, token,
                    parent.isEmpty() ? Optional.empty() : Optional.of(Long.parseLong(parent)),
                    values.getProperty("author", ""), Instant.parse(values.getProperty("at")),
                    values.getProperty("source", ""), values.getProperty("comment", "")));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Brings the store in line with the file: see the class doc's crash paragraph and invariants. */
    private void reconcile() throws IOException {
        byte[] onDisk = Files.readAllBytes(file);
        String fileToken = token(onDisk);
        if (!revisions.isEmpty() && !current().token().equals(fileToken)) {
            Revision newest = current();
            Optional<Revision> parent = newest.parent().flatMap(this::byNumber);
            if (parent.isPresent() && parent.get().token().equals(fileToken) && parent.get() == beforeNewest()) {
                moveAside(newest.number(), "unapplied"); // written, but the file never was
                revisions.remove(revisions.size() - 1);
            }
        }
        if (revisions.isEmpty() || !current().token().equals(fileToken)) {
            Revision found = new Revision(revisions.isEmpty() ? 1 : current().number() + 1, fileToken,
                    Optional.empty(), "file", clock.instant(), "file",
                    revisions.isEmpty() ? "the configuration file when revisions began"
                            : "the configuration file as found on disk (changed outside the gateway)");
            writeRevision(found, onDisk);
            revisions.add(found);
            prune();
        }
    }

    private Revision beforeNewest() {
        return revisions.size() < 2 ? null : revisions.get(revisions.size() - 2);
    }

    private Optional<Revision> byNumber(long number) {
        return revisions.stream().filter(r -> r.number() == number).findFirst();
    }

    private void writeRevision(Revision revision, byte[] bytes) throws IOException {
        Properties values = new Properties();
        values.setProperty("number", Long.toString(revision.number()));
        values.setProperty("token", revision.token());
        values.setProperty("parent", revision.parent().map(String::valueOf).orElse(""));
        values.setProperty("author", revision.author());
        values.setProperty("at", revision.at().toString());
        values.setProperty("source", revision.source());
        values.setProperty("comment", revision.comment());
        StringWriter text = new StringWriter();
        values.store(text, null);
        writeDurably(yaml(revision.number()), bytes, Set.of());
        writeDurably(dir.resolve(name(revision.number()) + ".properties"),
                text.toString().getBytes(StandardCharsets.UTF_8), Set.of());
        files.syncDirectory(dir);
    }

    private void replaceFile(byte[] bytes) throws IOException {
        Set<PosixFilePermission> permissions = Set.of();
        PosixFileAttributeView view = Files.getFileAttributeView(file, PosixFileAttributeView.class);
        if (view != null) {
            permissions = view.readAttributes().permissions();
        }
        Path temp = file.resolveSibling("." + file.getFileName() + ".qubiq.tmp");
        try {
            writeDurably(file, bytes, permissions, temp);
        } catch (IOException e) {
            files.deleteIfExists(temp);
            throw new IOException("could not write the configuration file " + file + ": " + e.getMessage()
                    + "; it is unchanged", e);
        }
        Path parent = file.toAbsolutePath().getParent();
        files.syncDirectory(parent);
    }

    private void writeDurably(Path target, byte[] bytes, Set<PosixFilePermission> permissions) throws IOException {
        writeDurably(target, bytes, permissions, target.resolveSibling(target.getFileName() + ".tmp"));
    }

    private void writeDurably(Path target, byte[] bytes, Set<PosixFilePermission> permissions, Path temp)
            throws IOException {
        try (FileChannel channel = files.open(temp, EnumSet.of(StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE))) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        }
        if (!permissions.isEmpty()) {
            Files.setPosixFilePermissions(temp, permissions);
        }
        files.move(temp, target);
    }

    private void prune() throws IOException {
        while (revisions.size() > keep) {
            Revision oldest = revisions.remove(0);
            files.deleteIfExists(dir.resolve(name(oldest.number()) + ".properties"));
            files.deleteIfExists(yaml(oldest.number()));
        }
    }

    private void moveAside(long number, String folder) throws IOException {
        Path aside = dir.resolve(folder);
        files.createDirectories(aside);
        for (String suffix : List.of(".properties", ".yaml")) {
            Path source = dir.resolve(name(number) + suffix);
            if (Files.exists(source)) {
                files.move(source, aside.resolve(source.getFileName()));
            }
        }
        files.syncDirectory(dir);
    }

    private Path yaml(long number) {
        return dir.resolve(name(number) + ".yaml");
    }

    private static String name(long number) {
        return String.format("%06d", number);
    }
}
