package io.looplift.executors.select;

import static io.looplift.executors.select.Simulated.BYTECODE;
import static io.looplift.executors.select.Simulated.JVM;
import static io.looplift.executors.select.Simulated.KEY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The chosen candidate running well past its measurement gets its size measured again. */
class DriftTest {
  private static final long N = 10_000_000;
  private final Simulated sim = new Simulated().cost(BYTECODE, 0, 1.0).cost(JVM, 20_000, 0.2);

  @Test
  void fiveSlowRunsInARowMeasureTheSizeAgainAndTheChoiceFollows() {
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    assertEquals("jvm", sim.settle(k, N).candidate());
    // Another process takes the cores: the pool now runs at a tenth of its measured speed.
    sim.cost(JVM, 20_000, 2.0);
    for (int i = 0; i < 5; i++) assertFalse(sim.launch(k, N).measuring(), "run " + i);
    assertTrue(sim.launch(k, N).measuring());
    assertEquals("bytecode", sim.settle(k, N).candidate());
    assertEquals(1, k.report().drifts());
  }

  @Test
  void slowRunsMustComeInARow() {
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    sim.settle(k, N);
    for (int round = 0; round < 5; round++) {
      sim.cost(JVM, 20_000, 2.0);
      for (int i = 0; i < 4; i++) sim.launch(k, N);
      sim.cost(JVM, 20_000, 0.2);
      sim.launch(k, N);
    }
    assertEquals(6, sim.measuringRuns(), "only the first measurement");
    assertEquals(0, k.report().drifts());
  }

  @Test
  void runsWithinTheFactorAreNoDrift() {
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    sim.settle(k, N);
    sim.cost(JVM, 20_000, 0.39); // just under twice the measured time
    for (int i = 0; i < 50; i++) assertFalse(sim.launch(k, N).measuring());
  }

  @Test
  void aKernelWithOneUsableCandidateNeverDrifts() {
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    sim.settle(k, N);
    sim.failing(BYTECODE);
    assertEquals("jvm", sim.launch(k, 1).candidate(), "bytecode's measuring run at a new size failed");
    sim.cost(JVM, 20_000, 2.0);
    for (int i = 0; i < 20; i++) assertFalse(sim.launch(k, N).measuring());
    assertEquals(0, k.report().drifts());
  }

  @Test
  void withTheBudgetSpentDriftIsReportedButNotMeasured() {
    SelectedKernel k = sim.selector().budget(6).build().kernel(KEY, List.of(BYTECODE, JVM));
    sim.settle(k, N);
    sim.cost(JVM, 20_000, 2.0);
    for (int i = 0; i < 20; i++) assertFalse(sim.launch(k, N).measuring());
    assertEquals(4, k.report().drifts());
    assertEquals("jvm", k.report().executor());
  }
}
