package io.qubiq.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The console's files are found the same way in a jar and in a classes folder, with types and tags. */
class UiFilesTest {

    @TempDir
    Path temp;

    @Test
    void theFilesOfAJarAreListedWithoutDirectoriesAndWithTheirTypes() throws Exception {
        Path jar = temp.resolve("ui.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new JarEntry("qubiq-ui/"));
            put(out, "qubiq-ui/index.html", "<html></html>");
            put(out, "qubiq-ui/js/pages/tags.js", "export {};");
            put(out, "other/secret.txt", "not served");
        }
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null)) {
            UiFiles ui = UiFiles.load(loader);

            assertThat(ui.files()).containsOnlyKeys("index.html", "js/pages/tags.js");
            assertThat(ui.files().get("js/pages/tags.js").contentType()).isEqualTo("text/javascript; charset=utf-8");
            assertThat(new String(ui.files().get("index.html").bytes())).isEqualTo("<html></html>");
        }
    }

    @Test
    void theFilesOfAClassesFolderAreListedTheSameWay() throws Exception {
        Path classes = temp.resolve("classes");
        Files.createDirectories(classes.resolve("qubiq-ui/js"));
        Files.writeString(classes.resolve("qubiq-ui/index.html"), "<html></html>");
        Files.writeString(classes.resolve("qubiq-ui/style.css"), "body {}");
        Files.writeString(classes.resolve("qubiq-ui/js/app.js"), "1");
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, null)) {
            UiFiles ui = UiFiles.load(loader);

            assertThat(ui.files()).containsOnlyKeys("index.html", "style.css", "js/app.js");
            assertThat(ui.files().get("style.css").contentType()).isEqualTo("text/css; charset=utf-8");
        }
    }

    @Test
    void theTagChangesWithTheContentSoABrowserNeverKeepsAnOldScript() throws Exception {
        Path one = temp.resolve("one");
        Path two = temp.resolve("two");
        for (Path dir : new Path[] {one, two}) {
            Files.createDirectories(dir.resolve("qubiq-ui"));
            Files.writeString(dir.resolve("qubiq-ui/index.html"), dir == one ? "v1" : "v2");
        }
        try (URLClassLoader a = new URLClassLoader(new URL[] {one.toUri().toURL()}, null);
             URLClassLoader b = new URLClassLoader(new URL[] {two.toUri().toURL()}, null)) {
            assertThat(UiFiles.load(a).files().get("index.html").etag())
                    .isNotEqualTo(UiFiles.load(b).files().get("index.html").etag()).startsWith("\"");
        }
    }

    private static void put(JarOutputStream out, String name, String text) throws IOException {
        out.putNextEntry(new JarEntry(name));
        out.write(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        out.closeEntry();
    }
}
