package io.looplift.executors.select;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The record format: what is written reads back, and nothing else reads as a record. */
class SelectionStoreTest {
  private static final StoredKernel RECORD = new StoredKernel(Simulated.KEY, "1.0", 8, 2, List.of(
      new StoredKernel.Candidate("bytecode", "the JVM's own loop", null,
          List.of(new Point(13, 10_000, 10_000, 10_000, 0, true), new Point(23, 10_000_000, 10_000_000, 9_000_000, 0,
              true)), List.of(new Point(17, 1 << 17, 1 << 17, 90_000, 0, true), new Point(17, 1 << 17, 1 << 17, 80_000,
              0, true)), false),
      new StoredKernel.Candidate("opencl:0", "GPU driver 1.0", "verify: element 3 differs",
          List.of(new Point(20, 1 << 10, 1 << 20, 400_000, 300_000, true)), List.of(), true)));

  @Test
  void aRecordReadsBackAsWritten() {
    assertEquals(Optional.of(RECORD), SelectionStore.decode(SelectionStore.encode(RECORD)));
  }

  @Test
  void truncatedOrExtendedBytesAreNoRecord() {
    byte[] bytes = SelectionStore.encode(RECORD);
    for (int n = 0; n < bytes.length; n++) {
      assertEquals(Optional.empty(), SelectionStore.decode(Arrays.copyOf(bytes, n)), "first " + n + " bytes");
    }
    assertEquals(Optional.empty(), SelectionStore.decode(Arrays.copyOf(bytes, bytes.length + 1)));
  }

  @Test
  void pointsOutOfOrderOrInTheWrongSizeClassAreNoRecord() {
    for (Point bad : List.of(new Point(12, 1, 10_000, 1, 0, true), new Point(13, 0, 10_000, 1, 0, true))) {
      StoredKernel k = new StoredKernel(Simulated.KEY, "1.0", 8, 1,
          List.of(new StoredKernel.Candidate("jvm", "8 threads", null, List.of(bad), List.of(), false)));
      assertTrue(SelectionStore.decode(SelectionStore.encode(k)).isEmpty(), bad.toString());
    }
    StoredKernel unordered = new StoredKernel(Simulated.KEY, "1.0", 8, 1, List.of(new StoredKernel.Candidate("jvm",
        "8 threads", null, List.of(new Point(14, 1, 1 << 14, 1, 0, true), new Point(13, 1, 1 << 13, 1, 0, true)),
        List.of(), false)));
    assertTrue(SelectionStore.decode(SelectionStore.encode(unordered)).isEmpty());
    StoredKernel unorderedSamples = new StoredKernel(Simulated.KEY, "1.0", 8, 1, List.of(new StoredKernel.Candidate("jvm",
        "8 threads", null, List.of(), List.of(new Point(14, 1, 1 << 14, 1, 0, true), new Point(13, 1, 1 << 13, 1, 0,
        true)), false)));
    assertTrue(SelectionStore.decode(SelectionStore.encode(unorderedSamples)).isEmpty());
  }
}
