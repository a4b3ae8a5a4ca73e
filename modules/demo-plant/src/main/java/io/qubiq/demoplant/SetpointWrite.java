package io.qubiq.demoplant;

import org.eclipse.milo.opcua.sdk.server.nodes.filters.AttributeFilter;
import org.eclipse.milo.opcua.sdk.server.nodes.filters.AttributeFilterContext;
import org.eclipse.milo.opcua.stack.core.AttributeId;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;

/**
 * Hands a client's write of a writable plant variable to the {@link PlantModel}, so the write
 * changes the process, and stores it on the node with fresh timestamps. A value of the wrong type
 * is refused with Bad_TypeMismatch and a level setpoint outside 0 to 5 m with Bad_OutOfRange;
 * neither reaches the model. Runs on the server's threads; the model is thread-safe.
 */
final class SetpointWrite implements AttributeFilter {

    private final PlantModel model;
    private final PlantVariable variable;

    SetpointWrite(PlantModel model, PlantVariable variable) {
        this.model = model;
        this.variable = variable;
    }

    @Override
    public void writeAttribute(AttributeFilterContext ctx, AttributeId attributeId, Object value) throws UaException {
        if (attributeId != AttributeId.Value || !(value instanceof DataValue written)) {
            ctx.writeAttribute(attributeId, value);
            return;
        }
        Object raw = written.value().getValue();
        switch (variable) {
            case TANK_LEVEL_SETPOINT -> {
                if (!(raw instanceof Double metres)) {
                    throw mismatch(raw, "Double");
                }
                if (!PlantModel.validLevelSetpoint(metres)) {
                    throw new UaException(StatusCodes.Bad_OutOfRange, "the level setpoint must be between 0 and "
                            + PlantModel.TANK_HEIGHT_M + " m, was " + metres);
                }
                model.setLevelSetpoint(metres);
            }
            case PUMP_ENABLED -> {
                if (!(raw instanceof Boolean enabled)) {
                    throw mismatch(raw, "Boolean");
                }
                model.setPumpEnabled(enabled);
            }
            default -> throw new UaException(StatusCodes.Bad_NotWritable, variable.id() + " is read-only");
        }
        DateTime now = DateTime.now();
        ctx.writeAttribute(attributeId, new DataValue(written.value(), StatusCode.GOOD, now, now));
    }

    private UaException mismatch(Object raw, String expected) {
        return new UaException(StatusCodes.Bad_TypeMismatch, variable.id() + " takes a " + expected + ", got "
                + (raw == null ? "null" : raw.getClass().getSimpleName()));
    }
}
