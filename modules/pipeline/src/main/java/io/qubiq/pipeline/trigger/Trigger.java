package io.qubiq.pipeline.trigger;

import io.qubiq.pipeline.Pipeline;

/**
 * What starts a pipeline. {@link #start} begins delivering events to the pipeline's
 * {@link Pipeline#handle}, from one thread at a time; {@link #close} stops for good.
 */
public interface Trigger extends AutoCloseable {

    void start(Pipeline pipeline) throws Exception;

    /** Tag values or messages the trigger had to discard because the pipeline fell behind. */
    default long dropped() {
        return 0;
    }

    /**
     * What killed the trigger's own delivery thread, while it is being restarted and has not handled
     * events since; empty for triggers without one (a tag trigger's thread is the tag bus's to report).
     */
    default java.util.Optional<String> failure() {
        return java.util.Optional.empty();
    }

    @Override
    void close();
}
