package io.qubiq.console;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.qubiq.auth.Permission;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code POST /api/v1/pipelines/check-expression} and {@code POST /api/v1/pipelines/try} (Edit
 * connections): the console's checks of a pipeline being edited. Neither changes anything: a try maps
 * each event for each output and shows the item, it submits nothing to any channel. A try of a pipeline
 * that would not load answers 422 with every problem by key path ({@code pipelines.<id>.filter}).
 */
public final class PipelineTrialRoutes implements ApiRoutes {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CHECK_SHAPE = "{\"expression\": \"value > 3\", \"trigger\": {\"tags\": [\"line1/**\"]},"
            + " \"transforms\": [\"celsius\"]}";
    private static final String TRY_SHAPE = "{\"id\": \"p\", \"pipeline\": {\"trigger\": ..., \"outputs\": [...]},"
            + " \"message\": {\"topic\": \"t\", \"payload\": \"{}\"}}";

    private final PipelineTrials trials;

    public PipelineTrialRoutes(PipelineTrials trials) {
        this.trials = trials;
    }

    @Override
    public void register(Api api) {
        Access edit = Access.to(Permission.EDIT_CONNECTIONS);
        api.post("/api/v1/pipelines/check-expression", edit, "Compile one expression with the variables its"
                        + " pipeline offers (the trigger's and the transforms' before it); changes nothing",
                Reply.json(PipelineTrials.ExpressionCheck.class).failing(RequestFailure.InvalidRequest.class), ctx -> {
                    JsonBody body = JsonBody.of(ctx, CHECK_SHAPE);
                    Object trigger = body.anyValue("trigger");
                    if (!(trigger instanceof Map<?, ?> map)) {
                        throw new RequestFailure.InvalidRequest("'trigger' must be an object like " + CHECK_SHAPE);
                    }
                    List<String> transforms = body.has("transforms") ? names(body.anyValue("transforms")) : List.of();
                    boolean template = body.has("template") && Boolean.TRUE.equals(body.anyValue("template"));
                    @SuppressWarnings("unchecked")
                    Map<String, Object> triggerMap = (Map<String, Object>) map;
                    return trials.checkExpression(body.text("expression"), triggerMap, transforms, template);
                });
        api.post("/api/v1/pipelines/try", edit, "Run a pipeline section once over the current values (or a given"
                        + " MQTT message) and show what each output would write, writing nothing",
                Reply.json(PipelineTrials.Tried.class).failing(RequestFailure.InvalidRequest.class)
                        .orAnswers(422, "the pipeline would not load: every problem by key path; nothing ran",
                                PipelineTrials.Invalid.class), ctx -> {
                    JsonBody body = JsonBody.of(ctx, TRY_SHAPE);
                    String id = body.optionalText("id").orElse("try");
                    Object pipeline = body.anyValue("pipeline");
                    Optional<PipelineTrials.Message> message = Optional.empty();
                    if (body.has("message")) {
                        try {
                            message = Optional.of(JSON.convertValue(body.anyValue("message"),
                                    PipelineTrials.Message.class));
                        } catch (IllegalArgumentException e) {
                            throw new RequestFailure.InvalidRequest("'message' must be like {\"topic\": \"t\","
                                    + " \"payload\": \"text\"}");
                        }
                    }
                    PipelineTrials.Outcome outcome = trials.tryPipeline(id, pipeline, message);
                    if (outcome instanceof PipelineTrials.Tried tried) {
                        return tried;
                    }
                    ctx.status(422).json(outcome);
                    return null;
                });
    }

    private static List<String> names(Object value) {
        if (!(value instanceof List<?> list) || !list.stream().allMatch(String.class::isInstance)) {
            throw new RequestFailure.InvalidRequest("'transforms' must be a list of transform names like " + CHECK_SHAPE);
        }
        return list.stream().map(String.class::cast).toList();
    }
}
