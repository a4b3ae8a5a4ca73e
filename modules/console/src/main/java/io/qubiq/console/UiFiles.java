package io.qubiq.console;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The console's own files (the {@code ui} module's {@code qubiq-ui/} folder on the classpath), read once
 * at start and served from memory: {@code /} is {@code index.html}, every other file is a route of its own.
 *
 * <p><b>Why not a static-files handler.</b> Jetty's classpath resource mounts the application jar as a
 * zip file system, which keeps an index of every entry on the heap; Javalin mounted the 76 MB application
 * jar four times for this folder, about 30-45 MiB of live heap for 184 KiB of files (measured with a
 * heap histogram and allocation stacks of the packaged demo, docs/performance.md, Footprint). Here the
 * folder is listed once with a {@link JarFile} (which shares the class loader's already open index) or,
 * when running from classes, a directory walk, and then closed.
 *
 * <p>Every answer carries a strong {@code ETag} (the content's SHA-256) and {@code Cache-Control:
 * no-cache}, so a browser revalidates and gets {@code 304} for an unchanged file: a new gateway version
 * is never shown with old scripts. Public, like every static file. Immutable after {@link #load}.
 */
final class UiFiles {

    static final String FOLDER = "qubiq-ui";

    /** A file as served. */
    record File(byte[] bytes, String contentType, String etag) {
    }

    private final Map<String, File> files;

    private UiFiles(Map<String, File> files) {
        this.files = Collections.unmodifiableMap(files);
    }

    /** Reads the folder from {@code loader}; empty when it is not on the classpath (a console without UI). */
    static UiFiles load(ClassLoader loader) {
        URL folder = loader.getResource(FOLDER + "/index.html");
        if (folder == null) {
            return new UiFiles(Map.of());
        }
        try {
            Map<String, File> files = new TreeMap<>();
            for (String name : list(folder)) {
                try (InputStream in = loader.getResourceAsStream(FOLDER + "/" + name)) {
                    if (in != null) {
                        byte[] bytes = in.readAllBytes();
                        files.put(name, new File(bytes, contentType(name), etag(bytes)));
                    }
                }
            }
            return new UiFiles(files);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the console's files from " + folder, e);
        }
    }

    /** The relative names of the folder's files, from a jar or a directory. */
    private static Iterable<String> list(URL index) throws IOException {
        String url = index.toString();
        if (url.startsWith("jar:file:")) {
            String jar = url.substring("jar:".length(), url.indexOf("!/"));
            try (JarFile file = new JarFile(Path.of(URI.create(jar)).toFile())) {
                return file.stream().filter(e -> !e.isDirectory() && e.getName().startsWith(FOLDER + "/"))
                        .map(JarEntry::getName).map(n -> n.substring(FOLDER.length() + 1)).toList();
            }
        }
        try {
            Path dir = Path.of(index.toURI()).getParent();
            try (Stream<Path> walk = Files.walk(dir)) {
                return walk.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString().replace('\\', '/'))
                        .toList();
            }
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new IOException("cannot list " + index + ": " + e.getMessage(), e);
        }
    }

    Map<String, File> files() {
        return files;
    }

    /** {@code GET /} and one {@code GET} route per file. */
    void register(RoutesConfig routes) {
        File index = files.get("index.html");
        if (index != null) {
            routes.get("/", ctx -> serve(ctx, index));
        }
        files.forEach((name, file) -> routes.get("/" + name, ctx -> serve(ctx, file)));
    }

    private static void serve(Context ctx, File file) {
        ctx.header("ETag", file.etag());
        ctx.header("Cache-Control", "no-cache");
        String asked = ctx.header("If-None-Match");
        if (asked != null && (asked.equals(file.etag()) || asked.equals("W/" + file.etag()))) {
            ctx.status(304);
            return;
        }
        ctx.contentType(file.contentType());
        ctx.result(file.bytes());
    }

    static String contentType(String name) {
        String extension = name.substring(name.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
        return switch (extension) {
            case "html" -> "text/html; charset=utf-8";
            case "js", "mjs" -> "text/javascript; charset=utf-8";
            case "css" -> "text/css; charset=utf-8";
            case "json", "map" -> "application/json";
            case "svg" -> "image/svg+xml";
            case "png" -> "image/png";
            case "ico" -> "image/x-icon";
            case "woff2" -> "font/woff2";
            case "txt" -> "text/plain; charset=utf-8";
            default -> "application/octet-stream";
        };
    }

    private static String etag(byte[] bytes) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(bytes);
            return "\"" + HexFormat.of().formatHex(digest, 0, 16) + "\"";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
