package io.qubiq.config.secret;

import io.qubiq.config.SecretLookup;
import io.qubiq.fileops.FileOps;
import io.qubiq.fileops.StoreFormat;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The values of the secrets entered in the console or the API (passwords of connections, for example),
 * kept in the data directory so that the configuration file and its revisions hold only a reference,
 * {@code ${secret:NAME}}.
 *
 * <p><b>Layout</b> of the store's directory ({@code <data dir>/secrets}, mode {@code 0700}):
 * <pre>
 *   FORMAT               qubiq-secrets format 1
 *   secrets.properties   NAME=value, one per secret (java.util.Properties escaping); mode 0600
 * </pre>
 * Nothing exists until the first secret is kept: a gateway whose file holds no reference never creates
 * the directory.
 *
 * <p><b>Generated secrets.</b> A few passwords the gateway makes for itself, per installation, on first use
 * ({@link #generated}, {@link #GENERATED}): the OPC UA key stores' password and the embedded QuestDB's.
 * {@link #retainOnly} never removes them.
 *
 * <p><b>Names</b> are made by the store from the key path the secret is for ({@link #newName}):
 * {@code outbound.db.sql.password-3}. A new value always gets a new name, so an older revision of the file
 * still names the value it was written with, and rolling back to it restores that value too.
 *
 * <p><b>Invariants.</b> The file and the directory are readable by the owner only: open tightens looser
 * permissions (a copy made by hand), every write creates its temp file owner-only. On a file system without
 * POSIX permissions there is nothing to tighten.
 *
 * <p><b>What a crash leaves.</b> Every write replaces the whole file: a temp file (owner-only, fsynced)
 * renamed over it, then the directory fsynced. A crash leaves the old file or the new one, and maybe a
 * temp file, which open deletes. A secret is kept before the configuration file that names it is written
 * (the caller's order), so a crash between the two leaves a secret nothing names, which the next
 * {@link #retainOnly} removes.
 *
 * <p><b>Threading.</b> Every method is synchronized; one gateway per data directory (its lock) is the
 * only writer. The gateway may hold several handles on the directory (each configuration load opens one):
 * every write reads the file again and changes only what it means to, under one lock for the whole JVM,
 * so no handle undoes another's write.
 */
public final class SecretStore implements SecretLookup {

    /** The store's directory in the data directory. */
    public static final String DIRECTORY = "secrets";
    /** {@code ${secret:NAME}}: group 1 is the name. */
    public static final Pattern REFERENCE = Pattern.compile("\\$\\{secret:([A-Za-z0-9_.\\-]+)}");
    static final StoreFormat FORMAT = new StoreFormat("qubiq-secrets", "secrets store", 1);
    static final String FILE = "secrets.properties";
    /** The PKCS12 password of every OPC UA connection's private key store ({@code pki/<id>/own/instance.p12}). */
    public static final String OPCUA_PKI_KEYSTORE = "opcua-pki-keystore";
    /** The password of the embedded QuestDB's HTTP and PostgreSQL wire users. */
    public static final String EMBEDDED_QUESTDB_PASSWORD = "embedded-questdb-password";
    /**
     * The secrets the gateway generates for itself ({@link #generated}): no configuration file names them, and
     * {@link #retainOnly} keeps them.
     */
    public static final Set<String> GENERATED = Set.of(OPCUA_PKI_KEYSTORE, EMBEDDED_QUESTDB_PASSWORD);
    /** Serializes the read-modify-write of every handle in this JVM. */
    private static final Object WRITES = new Object();
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Set<PosixFilePermission> OWNER_DIR = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> OWNER_FILE = PosixFilePermissions.fromString("rw-------");
    private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

    private final Optional<Path> dir;
    private final FileOps files;
    private final TreeMap<String, String> secrets;

    private SecretStore(Optional<Path> dir, FileOps files, TreeMap<String, String> secrets) {
        this.dir = dir;
        this.files = files;
        this.secrets = secrets;
    }

    /**
     * Opens the store in {@code dir} (usually {@code <data dir>/secrets}); a missing directory is an empty
     * store, created at the first {@link #keep}.
     *
     * @throws IOException the store cannot be read, is of a newer format, or a line of it is not one
     */
    public static SecretStore open(Path dir, FileOps files) throws IOException {
        synchronized (WRITES) {
            return new SecretStore(Optional.of(dir), files, load(dir, files));
        }
    }

    private static TreeMap<String, String> load(Path dir, FileOps files) throws IOException {
        TreeMap<String, String> secrets = new TreeMap<>();
        if (Files.isDirectory(dir)) {
            StoreFormat.Check format = FORMAT.check(dir);
            tighten(dir, OWNER_DIR);
            files.deleteIfExists(dir.resolve(FILE + ".tmp"));
            Path file = dir.resolve(FILE);
            if (Files.exists(file)) {
                tighten(file, OWNER_FILE);
            }
            secrets.putAll(read(file));
            if (format.damaged() || format.version().isEmpty()) {
                FORMAT.record(dir, format, files);
            }
        } else if (Files.exists(dir)) {
            throw new IOException("the secrets store " + dir + " is not a directory");
        }
        return secrets;
    }

    /** The secrets in {@code file}, none when it does not exist. */
    private static TreeMap<String, String> read(Path file) throws IOException {
        TreeMap<String, String> secrets = new TreeMap<>();
        if (!Files.exists(file)) {
            return secrets;
        }
        Properties values = new Properties();
        try (StringReader reader = new StringReader(Files.readString(file, StandardCharsets.UTF_8))) {
            values.load(reader);
        } catch (IllegalArgumentException | IOException e) {
            throw new IOException("cannot read the secrets store " + file + ": " + e.getMessage(), e);
        }
        for (String name : values.stringPropertyNames()) {
            if (!validName(name)) {
                throw new IOException("the secrets store " + file + " holds '" + name + "', which is not a"
                        + " secret's name (letters, digits, '.', '-' and '_')");
            }
            secrets.put(name, values.getProperty(name));
        }
        return secrets;
    }

    /** A store with no place on disk (a configuration bound in memory): no secrets, and none can be kept. */
    public static SecretStore none() {
        return new SecretStore(Optional.empty(), FileOps.system(), new TreeMap<>());
    }

    @Override
    public synchronized Optional<String> secret(String name) {
        return Optional.ofNullable(secrets.get(name));
    }

    /** The names of the secrets kept, sorted. */
    public synchronized Set<String> names() {
        return Set.copyOf(secrets.keySet());
    }

    /** Where the store lives; empty for {@link #none()}. */
    public Optional<Path> directory() {
        return dir;
    }

    /**
     * A name for a new value of the secret at {@code keyPath} that no kept secret has, nor any name in
     * {@code taken}: the key path with every character outside letters, digits, {@code .}, {@code -} and
     * {@code _} turned into {@code _}, then {@code -} and the next number.
     */
    public synchronized String newName(String keyPath, Set<String> taken) {
        String base = keyPath.replaceAll("[^A-Za-z0-9_.\\-]", "_");
        Pattern numbered = Pattern.compile(Pattern.quote(base) + "-([0-9]{1,9})");
        int highest = 0;
        for (String name : union(secrets.keySet(), taken)) {
            Matcher m = numbered.matcher(name);
            if (m.matches()) {
                highest = Math.max(highest, Integer.parseInt(m.group(1)));
            }
        }
        return base + "-" + (highest + 1);
    }

    /**
     * Keeps {@code values} (name to value) beside the secrets kept already; durable when this returns.
     *
     * @throws IOException nothing was kept (the file is as before); also for {@link #none()}
     */
    public synchronized void keep(Map<String, String> values) throws IOException {
        for (String name : values.keySet()) {
            if (!validName(name)) {
                throw new IllegalArgumentException("'" + name + "' is not a secret's name");
            }
        }
        synchronized (WRITES) {
            TreeMap<String, String> next = current();
            next.putAll(values);
            write(next);
            secrets.clear();
            secrets.putAll(next);
        }
    }

    /**
     * The value of the secret the gateway generates for itself under {@code name} (one of {@link #GENERATED}):
     * the kept one, or, on first use, a new random one (32 bytes from a {@link SecureRandom}, base64url),
     * kept before this returns.
     *
     * @throws IOException it could not be kept (nothing changed); also for {@link #none()}
     */
    public synchronized String generated(String name) throws IOException {
        if (!GENERATED.contains(name)) {
            throw new IllegalArgumentException("'" + name + "' is not a secret the gateway generates; those are "
                    + GENERATED);
        }
        synchronized (WRITES) {
            TreeMap<String, String> next = current();
            String value = next.get(name);
            if (value == null) {
                byte[] random = new byte[32];
                RANDOM.nextBytes(random);
                value = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
                next.put(name, value);
                write(next);
            }
            secrets.clear();
            secrets.putAll(next);
            return value;
        }
    }

    /**
     * Removes every secret {@code referenced} says nothing names any more; durable when this returns.
     *
     * @return how many were removed
     */
    public synchronized int retainOnly(Predicate<String> referenced) throws IOException {
        synchronized (WRITES) {
            TreeMap<String, String> next = current();
            int before = next.size();
            next.keySet().removeIf(name -> !referenced.test(name) && !GENERATED.contains(name));
            int removed = before - next.size();
            if (removed > 0) {
                write(next);
            }
            secrets.clear();
            secrets.putAll(next);
            return removed;
        }
    }

    /**
     * The secrets as the file holds them now: another handle on the same directory (the configuration's
     * store is opened again at every load) may have kept some since this one read it.
     */
    private TreeMap<String, String> current() throws IOException {
        if (dir.isEmpty() || !Files.exists(dir.get().resolve(FILE))) {
            return new TreeMap<>(secrets);
        }
        return read(dir.get().resolve(FILE));
    }

    /** The names of the {@code ${secret:NAME}} references in {@code text}, in order of appearance. */
    public static Set<String> referencedBy(String text) {
        Set<String> names = new LinkedHashSet<>();
        Matcher m = REFERENCE.matcher(text);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    /** A reference to the secret called {@code name}, as the configuration file holds it. */
    public static String reference(String name) {
        return "${secret:" + name + "}";
    }

    static boolean validName(String name) {
        return name.matches("[A-Za-z0-9_.\\-]+");
    }

    private void write(TreeMap<String, String> values) throws IOException {
        Path home = dir.orElseThrow(() -> new IOException("this configuration has no data directory to keep"
                + " secrets in"));
        if (!Files.isDirectory(home)) {
            files.createDirectories(home);
            tighten(home, OWNER_DIR);
            files.syncDirectory(home.toAbsolutePath().getParent());
        }
        FORMAT.record(home, FORMAT.check(home), files);
        Properties properties = new Properties();
        values.forEach(properties::setProperty);
        StringWriter text = new StringWriter();
        properties.store(text, "Qubiq secrets store: the values ${secret:NAME} references in the configuration"
                + " file take. Readable by the gateway's user only.");
        Path temp = home.resolve(FILE + ".tmp");
        files.deleteIfExists(temp);
        if (POSIX) {
            Files.createFile(temp, PosixFilePermissions.asFileAttribute(OWNER_FILE));
        }
        try (FileChannel channel = files.open(temp, EnumSet.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING))) {
            ByteBuffer buffer = ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8));
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        } catch (IOException e) {
            files.deleteIfExists(temp);
            throw e;
        }
        files.move(temp, home.resolve(FILE));
        files.syncDirectory(home);
    }

    private static void tighten(Path path, Set<PosixFilePermission> owner) throws IOException {
        if (POSIX && !Files.getPosixFilePermissions(path).equals(owner)) {
            Files.setPosixFilePermissions(path, owner);
        }
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new LinkedHashSet<>(a);
        all.addAll(b);
        return all;
    }
}
