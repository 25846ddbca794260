package io.looplift.executors.select;

import static io.looplift.executors.select.Simulated.BYTECODE;
import static io.looplift.executors.select.Simulated.JVM;
import static io.looplift.executors.select.Simulated.KEY;
import static io.looplift.executors.select.Simulated.OPENCL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code executor=jvm|opencl|reference}: the caller's first usable candidate, nothing measured. */
class ForcedTest {
  private final Simulated sim = new Simulated().cost(BYTECODE, 0, 1.0).cost(JVM, 20_000, 0.2)
      .cost(OPENCL, 50_000, 0.05);

  @Test
  void aForcedChoiceMeasuresNothingAndFallsBackInTheCallersOrder() {
    SelectedKernel k = sim.selector().forced("executor=opencl").build().kernel(KEY, List.of(OPENCL, JVM));
    for (long n = 1; n < 1 << 30; n *= 8) {
      Choice c = sim.launch(k, n);
      assertEquals("opencl:0", c.candidate());
      assertEquals(Source.FORCED, c.source());
      assertFalse(c.measuring());
    }
    sim.failing(OPENCL);
    Choice c = sim.launch(k, 1 << 20);
    assertEquals("jvm", c.candidate());
    assertEquals(Source.FORCED, c.source());
    SelectionReport r = k.report();
    assertEquals("jvm", r.executor());
    assertEquals(Source.FORCED, r.source());
    assertEquals(0, r.measuringRuns());
    // Each candidate's latest run: opencl:0's at 8^9 = 2^27 elements, jvm's at 2^20.
    assertEquals(Map.of("opencl:0", (50_000 + (long) (0.05 * (1 << 27))) / (double) (1 << 27),
        "jvm", (20_000 + (long) (0.2 * (1 << 20))) / (double) (1 << 20)), r.candidates());
  }
}
