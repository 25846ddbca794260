package io.looplift.executors.select;

import static io.looplift.executors.select.Simulated.BYTECODE;
import static io.looplift.executors.select.Simulated.JVM;
import static io.looplift.executors.select.Simulated.KEY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The chosen candidate running well past its measurement gets its size measured again. */
class DriftTest {
  private static final long N = 10_000_000;
  private final Simulated sim = new Simulated().cost(BYTECODE, 0, 1.0).cost(JVM, 20_000, 0.2);
  @TempDir Path cacheDir;

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

  /** Slow runs while the JIT compiles for half their time are warm-up, not drift; once it stops, they count. */
  @Test
  void slowRunsWhileTheJitIsBusyAreNoDrift() {
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    assertEquals("jvm", sim.settle(k, N).candidate());
    sim.cost(JVM, 20_000, 2.0).compilingDuring(JVM, 20, 0.5);
    for (int i = 0; i < 20; i++) assertFalse(sim.launch(k, N).measuring(), "run " + i);
    assertEquals(0, k.report().drifts());
    for (int i = 0; i < 5; i++) assertFalse(sim.launch(k, N).measuring(), "run " + i);
    assertTrue(sim.launch(k, N).measuring());
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
    assertEquals(5, sim.measuringRuns(), "only the first measurement (the bytecode's settled by two runs)");
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

  @Test
  void aPersistedChoiceRunningColdAtFirstIsNoDrift() {
    SelectedKernel first = persisting(sim).kernel(KEY, List.of(BYTECODE, JVM));
    assertEquals("jvm", sim.settle(first, N).candidate());
    // The next JVM run: the kernel is compiled again, its first launches slower than measured, then as fast.
    Simulated next = new Simulated().cost(BYTECODE, 0, 1.0).warming(JVM, 4.0, 2.0, 1.0, 0.6, 0.5, 0.45, 0.2);
    SelectedKernel k = persisting(next).kernel(KEY, List.of(BYTECODE, JVM));
    for (int i = 0; i < 30; i++) assertEquals(Source.PERSISTED, next.launch(k, N).source(), "launch " + i);
    assertEquals(0, next.measuringRuns());
    assertEquals(0, k.report().drifts());
  }

  @Test
  void aPersistedChoiceSlowFromTheStartDriftsAfterTheWarmUpLaunches() {
    sim.settle(persisting(sim).kernel(KEY, List.of(BYTECODE, JVM)), N);
    Simulated next = new Simulated().cost(BYTECODE, 0, 1.0).cost(JVM, 20_000, 2.0);
    SelectedKernel k = persisting(next).kernel(KEY, List.of(BYTECODE, JVM));
    int launches = SelectedKernel.WARM_LAUNCHES + 5;
    for (int i = 0; i < launches; i++) assertFalse(next.launch(k, N).measuring(), "launch " + i);
    assertTrue(next.launch(k, N).measuring());
    assertEquals("bytecode", next.settle(k, N).candidate());
    assertEquals(1, k.report().drifts());
  }

  private Selector persisting(Simulated s) {
    return s.selector().store(Selector.directory(cacheDir), line -> {}).build();
  }
}
