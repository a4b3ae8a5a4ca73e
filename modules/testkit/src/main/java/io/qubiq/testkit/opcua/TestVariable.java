package io.qubiq.testkit.opcua;

import java.time.Instant;
import org.eclipse.milo.opcua.stack.core.NodeIds;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned;

/**
 * The variables of the test server's {@code Plant} folder, one per data type the gateway carries
 * plus an unsigned one (to test widening) and a writable setpoint. The node id is
 * {@code ns=<index>;s=<id>}; {@link TestOpcUaServer#nodeId(TestVariable)} spells it.
 */
public enum TestVariable {
    BOOLEAN("Boolean", NodeIds.Boolean, true, false),
    INT32("Int32", NodeIds.Int32, 42, false),
    INT64("Int64", NodeIds.Int64, 9_000_000_000L, false),
    FLOAT("Float", NodeIds.Float, 1.5f, false),
    DOUBLE("Double", NodeIds.Double, 21.25, false),
    STRING("String", NodeIds.String, "running", false),
    DATETIME("DateTime", NodeIds.DateTime, new DateTime(Instant.parse("2026-01-02T03:04:05Z")), false),
    UINT16("UInt16", NodeIds.UInt16, Unsigned.ushort(7), false),
    /** A variable tests change with {@link TestOpcUaServer#setValue}, including its status code. */
    PRESSURE("Pressure", NodeIds.Double, 1.0, false),
    /** The only variable clients may write. */
    SETPOINT("Setpoint", NodeIds.Double, 50.0, true);

    private final String id;
    private final NodeId dataType;
    private final Object initial;
    private final boolean writable;

    TestVariable(String id, NodeId dataType, Object initial, boolean writable) {
        this.id = id;
        this.dataType = dataType;
        this.initial = initial;
        this.writable = writable;
    }

    public String id() {
        return id;
    }

    public NodeId dataType() {
        return dataType;
    }

    public boolean writable() {
        return writable;
    }

    DataValue initialValue() {
        DateTime now = DateTime.now();
        return new DataValue(new Variant(initial), StatusCode.GOOD, now, now);
    }
}
