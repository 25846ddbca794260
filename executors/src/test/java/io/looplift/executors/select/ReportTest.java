package io.looplift.executors.select;

import static io.looplift.executors.select.Simulated.BYTECODE;
import static io.looplift.executors.select.Simulated.JVM;
import static io.looplift.executors.select.Simulated.KEY;
import static io.looplift.executors.select.Simulated.OPENCL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the report says per kernel: the choice, where it came from, and each candidate's time per iteration. */
class ReportTest {
  @Test
  void beforeTheFirstLaunchNothingIsChosen() {
    SelectedKernel k = new Simulated().selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    SelectionReport r = k.report();
    assertNull(r.executor());
    assertEquals("not launched", r.summary());
  }

  /** Part-way through measuring, the report says so and shows the runs so far, not a decision. */
  @Test
  void whileASizeIsMeasuredTheReportSaysMeasuringWithTheRunsSoFar() {
    Simulated sim = new Simulated().cost(BYTECODE, 0, 1.0).cost(JVM, 0, 0.25);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    sim.launch(k, 1 << 20);
    sim.launch(k, 1 << 20);
    SelectionReport r = k.report();
    assertEquals(Source.MEASURING, r.source());
    assertEquals("jvm", r.executor());
    assertEquals(Map.of("bytecode", 1.0, "jvm", 0.25), r.candidates());
    assertEquals(2, r.measuringRuns());
    sim.settle(k, 1 << 20);
    assertEquals(Source.MEASURED, k.report().source());
  }

  @Test
  void eachCandidateIsReportedAtTheSizeItWasLastMeasuredAtWithItsTransfersApart() {
    Simulated sim = new Simulated().cost(BYTECODE, 0, 1.0).cost(JVM, 20_000, 0.2);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM, OPENCL));
    long n = 1 << 20;
    // The runtime times an OpenCL launch itself, with the part spent on transfers.
    for (int i = 0; i < 9; i++) {
      Choice c = k.choose(n, 1, 0).orElseThrow();
      if (c.candidate().equals("opencl:0")) {
        k.record(c, 300_000, 250_000);
      } else {
        sim.now += c.candidate().equals("jvm") ? 20_000 + n / 5 : n;
        k.record(c);
      }
    }
    SelectionReport r = k.report();
    assertEquals(Map.of("bytecode", 1.0, "jvm", (20_000 + n / 5) / (double) n, "opencl:0", 300_000.0 / n),
        r.candidates());
    assertEquals(List.of("bytecode", "jvm", "opencl:0"), List.copyOf(r.candidates().keySet()));
    assertEquals(Map.of("opencl:0", 250_000.0 / n), r.transfers());
    assertEquals("jvm", r.executor());
    assertEquals(Source.MEASURED, r.source());
    assertEquals(9, r.measuringRuns());
    assertEquals(3 * n + 3 * (20_000 + n / 5) + 3 * 300_000, r.measuringNanos()); // 4.73 ms
    assertEquals("jvm (measured: fastest measured at 2^20: jvm 230 µs, opencl:0 300 µs, bytecode 1.05 ms); 9"
        + " measuring runs, 4.73 ms", r.summary());
  }
}
