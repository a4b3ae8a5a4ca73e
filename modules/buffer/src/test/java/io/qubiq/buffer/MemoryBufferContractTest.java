package io.qubiq.buffer;

/** The shared contract, against the memory implementation. */
class MemoryBufferContractTest extends DurableBufferContract {
  @Override
  protected DurableBuffer create(BufferOptions options, WatermarkListener listener) {
    return MemoryBuffer.create(options, listener);
  }
}
