package io.qubiq.storeforward;

/**
 * What a {@link Forwarder} needs of the channel that owns it, and no more: the channel's {@link
 * ForwarderSide} implements it and hands it over, so the forwarder does not depend on the channel (the
 * dependency points one way: channel to forwarder). {@link HandOffContext} extends it for the hand-off's
 * forwarder side.
 *
 * <p>Threading: called on the forwarder's thread; every method is safe there while producers submit.
 */
interface ForwarderContext {

    /** The outbound connection's id, for logs and alarms. */
    String connection();

    /** The channel's counters the forwarder adds to. */
    ChannelCounters counters();

    /** Where the forwarder waits for data, liveness changes, operators and the stop. */
    Wakeups wakeups();

    /** False once the channel is stopping: the forwarder's loop ends. */
    boolean running();

    /** Called as the forwarder loops: publishes summed losses and notices failed fsyncs. */
    void checkStorage();

    /** The state the console shows ({@link ChannelState#FAILED} while the forwarder's restarts last). */
    ChannelState state();

    /** Sets the channel's state (ignored once the channel stopped). */
    void state(ChannelState state);

    /** True when handed-off batches wait for the forwarder. */
    boolean handOffWaiting();

    /**
     * Moves what the hand-off holds into the buffer (in order, the latch closed), so it is durable and
     * its sources' custody released while the destination is down; nothing when it holds nothing.
     */
    void bufferHandOff();

    /** Opens the ordering latch if the buffer is still empty; true if it is open. */
    boolean openLatchIfDrained();

    /** True while the backlog the channel started with must wait for start-up to settle ({@link BacklogHold}). */
    boolean backlogHeld();
}
