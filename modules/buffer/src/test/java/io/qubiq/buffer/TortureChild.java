package io.qubiq.buffer;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;

/**
 * Child process of {@link BufferTortureTest}: one thread appends (single records, small batches,
 * pipelined {@code appendAsync} calls that share a group commit in ALWAYS, now and then a {@code
 * sync}) while the main thread reads and acknowledges like a
 * forwarder, lagging behind in bursts so that segments roll, fill up and are deleted. It runs
 * until the parent kills it with SIGKILL.
 *
 * <p>Side channel on stdout, one line per event, each flushed at once:
 * <pre>
 * READY                 the buffer is open
 * a ID                  about to append the payload ID        (intent)
 * A SEQ ID              the append of ID returned SEQ          (done)
 * b N                   about to append a batch of N, or N pipelined appendAsync (intent)
 * k SEQ                 about to acknowledge through SEQ      (intent)
 * K SEQ                 the acknowledgement returned           (done)
 * s                     about to sync                          (intent)
 * S                     the sync returned                      (done)
 * </pre>
 * An intent line without its done line at the kill means the kill landed inside that call.
 */
public final class TortureChild {
  private TortureChild() {}

  /** Payload id of the {@code counter}-th append of a cycle. */
  static long id(int cycle, long counter) {
    return cycle * 1_000_000_000L + counter;
  }

  /**
   * Payload size of an id: half of them 8 to 200 bytes, half up to 4 KiB, so a 64 KiB segment
   * holds a few dozen records and the appender rolls every few hundred microseconds.
   */
  static int size(long id) {
    long mix = id * 0x9E3779B97F4A7C15L;
    return (mix & 1) == 0 ? 8 + (int) ((mix >>> 40) % 200) : 8 + (int) ((mix >>> 20) % 4_000);
  }

  static byte[] payload(long id) {
    return TestBuffers.payload(id, size(id));
  }

  /** 64 KiB segments (a roll every few hundred records) and room for 64 of them. */
  static BufferOptions options(Path dir, Durability durability) {
    return BufferOptions.defaults(dir)
        .withSegmentBytes(BufferOptions.MIN_SEGMENT_BYTES)
        .withMaxBytes(4L << 20)
        .withDurability(durability)
        .withPeriodicFsyncIntervalMs(5);
  }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    Durability durability = Durability.valueOf(args[1]);
    int cycle = Integer.parseInt(args[2]);
    long seed = Long.parseLong(args[3]);
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, "UTF-8");
    SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(options(dir, durability),
        WatermarkListener.none());
    long recoveredTail = buffer.stats().tailSequence();
    out.println("READY");
    Thread appender = new Thread(() -> append(buffer, out, cycle, new Random(seed)),
        "torture-appender");
    appender.setDaemon(true);
    appender.start();
    acknowledge(buffer, out, new Random(seed * 31 + 7), recoveredTail);
  }

  private static void append(DurableBuffer buffer, PrintStream out, int cycle, Random random) {
    long counter = 0;
    try {
      while (true) {
        int choice = random.nextInt(64);
        if (choice == 0) {
          out.println("s");
          buffer.sync();
          out.println("S");
        } else if (choice < 5) {
          int n = 1 + random.nextInt(8);
          List<byte[]> batch = new ArrayList<>(n);
          for (int i = 0; i < n; i++) {
            batch.add(payload(id(cycle, counter + i)));
          }
          out.println("b " + n);
          SequenceRange range = appendBatch(buffer, batch);
          for (int i = 0; i < n; i++) {
            out.println("A " + (range.first() + i) + " " + id(cycle, counter + i));
          }
          counter += n;
        } else if (choice < 9) {
          int n = 1 + random.nextInt(8);
          out.println("b " + n);
          List<CompletableFuture<Long>> pending = new ArrayList<>(n);
          for (int i = 0; i < n; i++) {
            pending.add(appendAsync(buffer, payload(id(cycle, counter + i))));
          }
          for (int i = 0; i < n; i++) {
            out.println("A " + pending.get(i).join() + " " + id(cycle, counter + i));
          }
          counter += n;
        } else {
          long id = id(cycle, counter);
          out.println("a " + id);
          long sequence = appendOne(buffer, payload(id));
          out.println("A " + sequence + " " + id);
          counter++;
        }
      }
    } catch (Exception | Error e) {
      out.println("E append " + e);
    }
  }

  private static long appendOne(DurableBuffer buffer, byte[] payload) throws Exception {
    while (true) {
      try {
        return buffer.append(payload);
      } catch (BufferFullException e) {
        Thread.sleep(1);
      }
    }
  }

  private static CompletableFuture<Long> appendAsync(DurableBuffer buffer, byte[] payload)
      throws Exception {
    while (true) {
      try {
        return buffer.appendAsync(payload);
      } catch (BufferFullException e) {
        Thread.sleep(1);
      }
    }
  }

  private static SequenceRange appendBatch(DurableBuffer buffer, List<byte[]> batch)
      throws Exception {
    while (true) {
      try {
        return buffer.appendBatch(batch);
      } catch (BufferFullException e) {
        Thread.sleep(1);
      }
    }
  }

  /**
   * Reads like a forwarder, in one of three ways chosen per child: it keeps up; it lags, keeping
   * a backlog of up to 1,500 records; or it acknowledges only what recovery found
   * ({@code recoveredTail}) and then nothing more, so the segments in front of the first new one
   * are deleted while every record after them stays unacknowledged. Sometimes it pauses.
   */
  private static void acknowledge(DurableBuffer buffer, PrintStream out, Random random,
      long recoveredTail) {
    int way = random.nextInt(4);
    int backlog = way < 2 ? 0 : random.nextInt(1_500);
    long limit = way == 1 ? recoveredTail : Long.MAX_VALUE;
    try {
      while (true) {
        if (random.nextInt(8) == 0) {
          Thread.sleep(random.nextInt(20));
        }
        List<BufferedRecord> batch = buffer.reader().peek(backlog + 1 + random.nextInt(3_000),
            Long.MAX_VALUE);
        int ackable = 0;
        while (ackable < batch.size() - backlog && batch.get(ackable).sequence() <= limit) {
          ackable++;
        }
        if (ackable == 0) {
          Thread.sleep(1);
          continue;
        }
        for (BufferedRecord r : batch) {
          TestBuffers.idOf(r.payload());
        }
        long through = batch.get(random.nextInt(ackable)).sequence();
        out.println("k " + through);
        buffer.reader().acknowledge(through);
        out.println("K " + through);
      }
    } catch (Exception | Error e) {
      out.println("E acknowledge " + e);
    }
  }
}
