package io.qubiq.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The Markdown reference of every configuration key, generated from the same declarations the
 * binder reads ({@code @Doc}, {@code @Default}, {@code @Range}, {@code @Secret}, {@code @Variant}):
 * one table per record, headed by its key path, with columns key, type (with the unit its name
 * carries), default, allowed values and description. Deterministic: the same classes always give
 * the same text.
 *
 * <p>The documentation keeps the generated text between {@link #BEGIN} and {@link #END}; a test
 * checks it is current with one line, and regenerates it when run with
 * {@code -Dqubiq.config.reference.update=true}:
 *
 * <pre>{@code
 * assertThat(ConfigReference.verifyOrUpdate(Path.of("../docs/configuration.md"), GatewayConfig.class)).isEmpty();
 * }</pre>
 */
public final class ConfigReference {

    public static final String BEGIN = "<!-- BEGIN GENERATED: config-reference -->";
    public static final String END = "<!-- END GENERATED: config-reference -->";
    /** The system property that turns verification into regeneration. */
    public static final String UPDATE_PROPERTY = "qubiq.config.reference.update";

    private ConfigReference() {
    }

    /**
     * The reference for {@code root} as Markdown ({@code ###} sections), ending with a newline.
     *
     * @throws IllegalArgumentException when a component has no {@code @Doc} (all are listed) or a
     *     declaration is not a supported configuration type
     */
    public static String markdown(Class<? extends Record> root) {
        return new ReferenceWriter().write(root);
    }

    /**
     * Checks that {@code markdownFile} holds exactly {@link #markdown} between the markers; with
     * {@code update}, rewrites that part instead (creating the file with the markers if missing).
     *
     * @return empty when the file is current (or was just updated), otherwise what is wrong and how
     *     to regenerate it
     */
    public static Optional<String> verifyOrUpdate(Path markdownFile, Class<? extends Record> root, boolean update) {
        String generated = markdown(root);
        try {
            String current = Files.exists(markdownFile)
                    ? Files.readString(markdownFile, StandardCharsets.UTF_8).replace("\r\n", "\n")
                    : null;
            if (update) {
                String next = current == null
                        ? BEGIN + "\n" + generated + END + "\n"
                        : GeneratedBlock.replace(current, BEGIN, END, generated)
                                .orElseThrow(() -> new IllegalStateException(markdownFile + " has no "
                                        + BEGIN + " … " + END + " block to update"));
                if (!next.equals(current)) {
                    Files.writeString(markdownFile, next, StandardCharsets.UTF_8);
                }
                return Optional.empty();
            }
            if (current == null) {
                return Optional.of(markdownFile + " does not exist. " + howToUpdate());
            }
            return GeneratedBlock.compare(current, BEGIN, END, generated)
                    .map(difference -> markdownFile + " is out of date with the configuration declarations: "
                            + difference + ". " + howToUpdate());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or write " + markdownFile, e);
        }
    }

    /** As {@link #verifyOrUpdate(Path, Class, boolean)}, updating when {@link #UPDATE_PROPERTY} is true. */
    public static Optional<String> verifyOrUpdate(Path markdownFile, Class<? extends Record> root) {
        return verifyOrUpdate(markdownFile, root, Boolean.getBoolean(UPDATE_PROPERTY));
    }

    private static String howToUpdate() {
        return "Regenerate it by running this test with -D" + UPDATE_PROPERTY + "=true";
    }
}
