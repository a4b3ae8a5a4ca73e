package io.qubiq.testkit.opcua;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Starts one {@link TestOpcUaServer} per test class and injects it into test constructors and
 * methods. A test that stopped the server finds it running again in the next test.
 *
 * <pre>{@code
 * @ExtendWith(OpcUaServerExtension.class)
 * class MyTest {
 *     @Test void reads(TestOpcUaServer server) { ... server.endpointUrl() ... }
 * }
 * }</pre>
 */
public final class OpcUaServerExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback,
        ParameterResolver {

    private static final ExtensionContext.Namespace STORE = ExtensionContext.Namespace.create(OpcUaServerExtension.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        server(context).start();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        server(context).start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        TestOpcUaServer server = context.getStore(STORE).remove(TestOpcUaServer.class, TestOpcUaServer.class);
        if (server != null) {
            server.stop();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == TestOpcUaServer.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return server(context);
    }

    private static TestOpcUaServer server(ExtensionContext context) {
        ExtensionContext classContext = context;
        while (classContext.getParent().isPresent() && classContext.getTestMethod().isPresent()) {
            classContext = classContext.getParent().get();
        }
        return classContext.getStore(STORE).getOrComputeIfAbsent(TestOpcUaServer.class,
                key -> TestOpcUaServer.onFreePort(), TestOpcUaServer.class);
    }
}
