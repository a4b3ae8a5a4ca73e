package io.qubiq.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The console's REST contract is typed: every method of the interfaces the application implements
 * for it answers with the console's records (or lists, optionals and maps of them, or plain values),
 * never {@code Object} or a wildcard, so the JSON is declared here and not whatever the
 * application's internal records look like (issue 21). Would catch an access method that returns
 * an internal type again.
 */
class AccessContractTest {

    private static final List<Class<?>> ACCESS = List.of(AlarmAccess.class, AuditAccess.class, DeviceAccess.class,
            HistoryAccess.class, LossAccess.class, PipelineAccess.class, StoreForwardAccess.class, TagView.class);
    private static final Set<Class<?>> VALUES = Set.of(String.class, Instant.class, Duration.class, Boolean.class,
            Long.class, Integer.class, Double.class, void.class, boolean.class, long.class, int.class, double.class);

    @Test
    void everyAccessMethodAnswersWithDeclaredRecordsOrPlainValues() {
        List<String> untyped = new ArrayList<>();
        for (Class<?> access : ACCESS) {
            for (Method method : access.getMethods()) {
                if (method.getDeclaringClass() == access && !typed(method.getGenericReturnType())) {
                    untyped.add(access.getSimpleName() + "." + method.getName() + " returns "
                            + method.getGenericReturnType().getTypeName());
                }
            }
        }
        assertThat(untyped).isEmpty();
    }

    private static boolean typed(Type type) {
        if (type instanceof WildcardType) {
            return false;
        }
        if (type instanceof ParameterizedType parameterized) {
            Class<?> raw = (Class<?>) parameterized.getRawType();
            if (raw != List.class && raw != Optional.class && raw != Map.class
                    && raw != java.util.concurrent.CompletableFuture.class) {
                return false;
            }
            for (Type argument : parameterized.getActualTypeArguments()) {
                if (!typed(argument)) {
                    return false;
                }
            }
            return true;
        }
        if (type instanceof Class<?> c) {
            return c.isRecord() || c.isEnum() || VALUES.contains(c) || c.getPackageName().startsWith("io.qubiq.core");
        }
        return false;
    }
}
