package io.looplift.executors.select;

import static io.looplift.executors.select.Simulated.BYTECODE;
import static io.looplift.executors.select.Simulated.JVM;
import static io.looplift.executors.select.Simulated.KEY;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Measuring runs the JIT compiled through are run again: their times were not the candidate's own. */
class DisturbedTest {
  /** Launches of 8 ms and more: long enough for compilation time counted in whole milliseconds. */
  private static final long N = 1 << 23;

  /** The pool's first three runs share the processors with the JIT and take four times as long as later ones. */
  private static Simulated firstPoolRunsBesideTheJit(double share) {
    return new Simulated().cost(BYTECODE, 0, 1.0).warming(JVM, 1.2, 1.2, 1.2, 0.3).compilingDuring(JVM, 3, share);
  }

  @Test
  void runsTheJitCompiledThroughAreRunAgain() {
    Simulated sim = firstPoolRunsBesideTheJit(0.5);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    assertEquals("jvm", sim.settle(k, N).candidate());
    assertEquals(0.3, k.report().candidates().get("jvm"), 1e-5, "ns per iteration of its undisturbed runs");
    assertEquals(9, sim.measuringRuns(), "3 of each, and the pool's 3 disturbed runs again");
  }

  @Test
  void aLittleCompilingBesideARunIsNoDisturbance() {
    Simulated sim = firstPoolRunsBesideTheJit(SelectedKernel.DISTURBED / 2);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    assertEquals("bytecode", sim.settle(k, N).candidate());
    assertEquals(6, sim.measuringRuns());
  }

  @Test
  void runsTooShortForTheJitsMillisecondsAreNeverSetAside() {
    Simulated sim = firstPoolRunsBesideTheJit(0.5);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    assertEquals("bytecode", sim.settle(k, 1 << 20).candidate(), "1 ms launches: the pool's slow runs count");
    assertEquals(6, sim.measuringRuns());
  }

  @Test
  void atMostSixRunsOfAKernelAreSetAside() {
    Simulated sim = new Simulated().cost(BYTECODE, 0, 1.0).cost(JVM, 0, 1.2).compilingDuring(JVM, 1000, 0.5);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    assertEquals("bytecode", sim.settle(k, N).candidate(), "the pool measured after all, beside the JIT");
    assertEquals(6 + Measurements.DISTURBED_RUNS, sim.measuringRuns());
    assertEquals(6 + Measurements.DISTURBED_RUNS, k.report().measuringRuns());
  }
}
