package io.qubiq.connector.opcua;

import io.qubiq.core.connector.TagWriteResult;
import io.qubiq.core.error.PermanentException;
import io.qubiq.core.error.TransientException;
import io.qubiq.core.error.UnknownOutcomeException;
import io.qubiq.core.tag.Quality;
import io.qubiq.core.tag.TagPath;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;

/**
 * Sends one tag write to the device: undoes the tag's scaling, converts the value to the
 * variable's own OPC UA type (known from the last value read, otherwise read first), writes it
 * once and classifies the outcome. The device's verdict completes the future, Good or Bad; a value
 * that cannot be converted fails with {@link PermanentException} before anything is sent; no answer
 * within the request timeout fails with {@link UnknownOutcomeException}; a broken connection with
 * {@link TransientException}. Never retries, never buffers. Stateless; any thread.
 */
final class TagWriter {

    private final long requestTimeoutMs;
    private final Function<TagPath, Optional<Class<?>>> knownRawType;

    TagWriter(long requestTimeoutMs, Function<TagPath, Optional<Class<?>>> knownRawType) {
        this.requestTimeoutMs = requestTimeoutMs;
        this.knownRawType = knownRawType;
    }

    CompletableFuture<TagWriteResult> write(OpcUaClient client, OpcUaTagConfig tag, Object value) {
        TagPath path = tag.tagPath();
        Object raw = tag.scale().isPresent() && value instanceof Number number
                ? (Object) tag.scale().get().toRaw(number.doubleValue()) : value;
        NodeId node = tag.node();
        return rawType(client, path, node)
                .thenCompose(type -> client.writeValuesAsync(List.of(node),
                        List.of(DataValue.valueOnly(VariantConversion.toVariant(raw, type)))))
                .orTimeout(requestTimeoutMs, TimeUnit.MILLISECONDS)
                .handle((codes, failure) -> {
                    if (failure != null) {
                        throw new CompletionException(classify(path, failure));
                    }
                    StatusCode code = codes.get(0);
                    Quality verdict = QualityMapping.of(code);
                    String message = code.isGood() ? "written" : "the device rejected the write: " + verdict.label();
                    return new TagWriteResult(path, verdict, message);
                });
    }

    private CompletableFuture<Optional<Class<?>>> rawType(OpcUaClient client, TagPath path, NodeId node) {
        Optional<Class<?>> known = knownRawType.apply(path);
        if (known.isPresent()) {
            return CompletableFuture.completedFuture(known);
        }
        return client.readValuesAsync(0.0, TimestampsToReturn.Neither, List.of(node))
                .thenApply(values -> TagValueShaper.rawType(values.get(0), Optional.empty()));
    }

    private Exception classify(TagPath path, Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        if (cause instanceof IllegalArgumentException) {
            return new PermanentException("cannot write " + path + ": " + cause.getMessage() + "; nothing was written",
                    cause);
        }
        if (cause instanceof TimeoutException || QualityMapping.ofFailure(cause).equals(Quality.BAD_TIMEOUT)) {
            return new UnknownOutcomeException("no answer to the write of " + path + " within " + requestTimeoutMs
                    + " ms; the device may or may not have applied it", cause);
        }
        return new TransientException("the write of " + path + " failed: " + cause, cause);
    }
}
