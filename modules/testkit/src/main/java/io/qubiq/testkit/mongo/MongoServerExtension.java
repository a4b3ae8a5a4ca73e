package io.qubiq.testkit.mongo;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Starts one {@link MongoTestServer} per test class, on a free port, and stops it (forgetting its
 * data) after the last test. The server is injected into every static field of type
 * {@code MongoTestServer} and resolved for test and lifecycle method parameters. A test that stopped
 * the server finds it running again, on the same port and data, in the next test.
 *
 * <pre>{@code
 * @ExtendWith(MongoServerExtension.class)
 * class MyTest {
 *     static MongoTestServer mongo;
 * }
 * }</pre>
 *
 * Tests of one class share the server's data: give each test its own database or collection.
 */
public final class MongoServerExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback,
        ParameterResolver {

    private static final ExtensionContext.Namespace STORE = ExtensionContext.Namespace.create(MongoServerExtension.class);

    @Override
    public void beforeAll(ExtensionContext context) throws IllegalAccessException {
        MongoTestServer server = server(context).start();
        for (Field field : context.getRequiredTestClass().getDeclaredFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == MongoTestServer.class) {
                field.setAccessible(true);
                field.set(null, server);
            }
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        server(context).start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        MongoTestServer server = context.getStore(STORE).remove(MongoTestServer.class, MongoTestServer.class);
        if (server != null) {
            server.close();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == MongoTestServer.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return server(context);
    }

    private static MongoTestServer server(ExtensionContext context) {
        ExtensionContext classContext = context;
        while (classContext.getParent().isPresent() && classContext.getTestMethod().isPresent()) {
            classContext = classContext.getParent().get();
        }
        return classContext.getStore(STORE).getOrComputeIfAbsent(MongoTestServer.class,
                key -> MongoTestServer.onFreePort(), MongoTestServer.class);
    }
}
