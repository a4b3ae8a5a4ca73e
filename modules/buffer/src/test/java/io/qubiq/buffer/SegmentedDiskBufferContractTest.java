package io.qubiq.buffer;

/** The shared contract, against the disk implementation. */
class SegmentedDiskBufferContractTest extends DurableBufferContract {
  @Override
  protected DurableBuffer create(BufferOptions options, WatermarkListener listener)
      throws BufferException {
    return SegmentedDiskBuffer.open(options, listener);
  }
}
