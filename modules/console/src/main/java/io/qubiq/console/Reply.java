package io.qubiq.console;

import io.javalin.http.Context;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What an endpoint answers: on success its status and the Java type of its body (a record, a list of
 * records, a plain value), and instead the {@link RequestFailure} kinds it may throw. The OpenAPI
 * description is generated from these declarations, and the handler's answer is typed by them, so the
 * two cannot drift apart. Immutable.
 *
 * @param <T> the type the endpoint's handler answers with
 */
public final class Reply<T> {

    private final int status;
    private final Optional<Type> body;
    private final String mediaType;
    private final Set<Class<? extends RequestFailure>> failures;
    private final Map<Integer, OtherAnswer> otherErrors;

    /** An error status the console answers with itself, and its body when that is not the error body. */
    record OtherAnswer(String description, Optional<Class<?>> body) {
    }

    private Reply(int status, Optional<Type> body, String mediaType, Set<Class<? extends RequestFailure>> failures,
                  Map<Integer, OtherAnswer> otherErrors) {
        this.status = status;
        this.body = body;
        this.mediaType = mediaType;
        this.failures = Set.copyOf(failures);
        this.otherErrors = Map.copyOf(otherErrors);
    }

    /** 200 with {@code type} as JSON. */
    public static <T> Reply<T> json(Class<T> type) {
        return new Reply<>(200, Optional.of(type), "application/json", Set.of(), Map.of());
    }

    /** 200 with a JSON array of {@code element}. */
    public static <E> Reply<List<E>> jsonList(Class<E> element) {
        return new Reply<>(200, Optional.of(listOf(element)), "application/json", Set.of(), Map.of());
    }

    /** 204 without a body; the handler answers null. */
    public static Reply<Void> noContent() {
        return new Reply<>(204, Optional.empty(), "", Set.of(), Map.of());
    }

    /** 200 with text of the given media type, which the handler writes itself (answering null). */
    static Reply<Void> text(String mediaType) {
        return new Reply<>(200, Optional.of(String.class), mediaType, Set.of(), Map.of());
    }

    /** 201 instead of 200: the request created what the body describes. */
    public Reply<T> created() {
        return new Reply<>(201, body, mediaType, failures, otherErrors);
    }

    /** The failure kinds the endpoint may answer with, besides those of the request guard. */
    @SafeVarargs
    public final Reply<T> failing(Class<? extends RequestFailure>... kinds) {
        Set<Class<? extends RequestFailure>> all = new LinkedHashSet<>(failures);
        all.addAll(Arrays.asList(kinds));
        return new Reply<>(status, body, mediaType, all, otherErrors);
    }

    /** An error status the console's own handler answers with (account errors), with the error body. */
    Reply<T> orAnswers(int errorStatus, String description) {
        return orAnswers(errorStatus, description, Optional.empty());
    }

    /** An error status the console's own handler answers with a body of its own (sign-in refusals, health). */
    Reply<T> orAnswers(int errorStatus, String description, Class<?> errorBody) {
        return orAnswers(errorStatus, description, Optional.of(errorBody));
    }

    private Reply<T> orAnswers(int errorStatus, String description, Optional<Class<?>> errorBody) {
        Map<Integer, OtherAnswer> all = new LinkedHashMap<>(otherErrors);
        all.put(errorStatus, new OtherAnswer(description, errorBody));
        return new Reply<>(status, body, mediaType, failures, all);
    }

    /** 200, 201 or 204. */
    public int status() {
        return status;
    }

    /** The body's Java type, as the console's JSON mapper writes it; empty for 204. */
    public Optional<Type> body() {
        return body;
    }

    /** {@code application/json}, or the text type of a body the handler writes itself. */
    public String mediaType() {
        return mediaType;
    }

    public Set<Class<? extends RequestFailure>> failures() {
        return failures;
    }

    Map<Integer, OtherAnswer> otherErrors() {
        return otherErrors;
    }

    /**
     * Writes the handler's answer: as JSON with the declared status, or nothing when the handler
     * answered null because it wrote the response itself (a status it chose, text, a refusal).
     */
    void send(Context ctx, T answer) {
        if (answer == null) {
            if (status == 204) {
                ctx.status(204);
            }
            return;
        }
        if (status != 200) {
            ctx.status(status);
        }
        ctx.json(answer);
    }

    private static Type listOf(Class<?> element) {
        Objects.requireNonNull(element, "element");
        return new ParameterizedType() {
            @Override
            public Type[] getActualTypeArguments() {
                return new Type[] {element};
            }

            @Override
            public Type getRawType() {
                return List.class;
            }

            @Override
            public Type getOwnerType() {
                return null;
            }

            @Override
            public String getTypeName() {
                return "java.util.List<" + element.getTypeName() + ">";
            }
        };
    }
}
