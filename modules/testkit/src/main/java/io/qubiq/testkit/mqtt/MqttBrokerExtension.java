package io.qubiq.testkit.mqtt;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Starts one {@link TestMqttBroker} per test class, with a TCP and a TLS listener ({@link
 * TestMqttBroker#onFreePortWithTls()}), and injects it into test constructors and methods. A test
 * that stopped the broker finds it running again in the next test.
 *
 * <pre>{@code
 * @ExtendWith(MqttBrokerExtension.class)
 * class MyTest {
 *     @Test void receives(TestMqttBroker broker) { ... broker.port() ... }
 * }
 * }</pre>
 */
public final class MqttBrokerExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback,
        ParameterResolver {

    private static final ExtensionContext.Namespace STORE = ExtensionContext.Namespace.create(MqttBrokerExtension.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        broker(context).start();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        broker(context).start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        TestMqttBroker broker = context.getStore(STORE).remove(TestMqttBroker.class, TestMqttBroker.class);
        if (broker != null) {
            broker.close();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == TestMqttBroker.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return broker(context);
    }

    private static TestMqttBroker broker(ExtensionContext context) {
        ExtensionContext classContext = context;
        while (classContext.getParent().isPresent() && classContext.getTestMethod().isPresent()) {
            classContext = classContext.getParent().get();
        }
        return classContext.getStore(STORE).getOrComputeIfAbsent(TestMqttBroker.class,
                key -> TestMqttBroker.onFreePortWithTls(), TestMqttBroker.class);
    }
}
