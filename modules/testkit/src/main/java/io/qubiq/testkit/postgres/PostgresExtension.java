package io.qubiq.testkit.postgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Starts one real {@link PostgresServer} per test class, in a fresh temporary directory, and stops
 * it (and deletes the directory) after the last test. The server is injected into every static
 * field of type {@code PostgresServer} and resolved for test and lifecycle method parameters:
 *
 * <pre>{@code
 * @ExtendWith(PostgresExtension.class)
 * class SomethingTest {
 *     static PostgresServer postgres;
 * }
 * }</pre>
 *
 * A test may stop, kill or restart the server; after the last test the extension stops whatever
 * is left running, never any other process.
 */
public final class PostgresExtension implements BeforeAllCallback, AfterAllCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(PostgresExtension.class);
    private static final String SERVER = "server";

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        Path dir = Files.createTempDirectory("pg-" + context.getRequiredTestClass().getSimpleName() + "-");
        PostgresServer server = PostgresServer.start(dir);
        context.getStore(NAMESPACE).put(SERVER, server);
        for (Field field : context.getRequiredTestClass().getDeclaredFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == PostgresServer.class) {
                field.setAccessible(true);
                field.set(null, server);
            }
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        PostgresServer server = context.getStore(NAMESPACE).remove(SERVER, PostgresServer.class);
        if (server == null) {
            return;
        }
        server.stop();
        deleteTree(server.dir());
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == PostgresServer.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        PostgresServer server = context.getStore(NAMESPACE).get(SERVER, PostgresServer.class);
        if (server == null) {
            throw new IllegalStateException("PostgresExtension must be registered on the test class");
        }
        return server;
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not delete PostgreSQL directory " + dir, e);
        }
    }
}
