package io.looplift.executors.select;

import static io.looplift.executors.select.Simulated.BYTECODE;
import static io.looplift.executors.select.Simulated.JVM;
import static io.looplift.executors.select.Simulated.KEY;
import static io.looplift.executors.select.Simulated.OPENCL;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Measuring runs the JIT compiled through, or beside which a device's process worked, are run again: their
 * times were not the candidate's own.
 */
class DisturbedTest {
  /** Launches of 8 ms and more: long enough for compilation time counted in whole milliseconds. */
  private static final long N = 1 << 23;

  /** The pool's first three runs take four times as long as later ones. */
  private static Simulated slowFirstPoolRuns() {
    return new Simulated().cost(BYTECODE, 0, 1.0).warming(JVM, 1.2, 1.2, 1.2, 0.3);
  }

  /** The pool's first three runs share the processors with the JIT and take four times as long as later ones. */
  private static Simulated firstPoolRunsBesideTheJit(double share) {
    return slowFirstPoolRuns().compilingDuring(JVM, 3, share);
  }

  /** The pool's slow runs were set aside and run again: it is chosen for its undisturbed runs. */
  private static void assertSlowRunsRunAgain(Simulated sim) {
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    assertEquals("jvm", sim.settle(k, N).candidate());
    assertEquals(0.3, k.report().candidates().get("jvm"), 1e-5, "ns per iteration of its undisturbed runs");
    assertEquals(9, sim.measuringRuns(), "3 of each, and the pool's 3 disturbed runs again");
  }

  @Test
  void runsTheJitCompiledThroughAreRunAgain() {
    assertSlowRunsRunAgain(firstPoolRunsBesideTheJit(0.5));
  }

  /** The OpenCL host opening its device and building programs beside the pool's first runs, as the JIT would. */
  @Test
  void runsADeviceProcessWorkedBesideAreRunAgain() {
    assertSlowRunsRunAgain(slowFirstPoolRuns().deviceBusyDuring(JVM, 3, 0.5));
  }

  /** What a device's process does during the device's own runs is their work, not a disturbance. */
  @Test
  void aDevicesOwnProcessWorkingThroughItsRunsIsNoDisturbance() {
    Simulated sim = new Simulated().cost(BYTECODE, 0, 1.0).cost(OPENCL, 0, 0.5).deviceBusyDuring(OPENCL, 1000, 1.0);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, OPENCL));
    assertEquals("opencl:0", sim.settle(k, N).candidate());
    assertEquals(6, sim.measuringRuns(), "3 of each, none set aside");
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

  /**
   * The device's runs, 5 times the bytecode's, come while the JIT compiles: sharing the processors would not
   * explain that gap, so they count, and its first two (steady, 42 ms each) settle it.
   */
  @Test
  void aDisturbedRunOutOfReachCounts() {
    Simulated sim = new Simulated().cost(BYTECODE, 0, 1.0).cost(OPENCL, 0, 5.0).compilingDuring(OPENCL, 1000, 0.5);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, OPENCL));
    assertEquals("bytecode", sim.settle(k, N).candidate());
    assertEquals(List.of("bytecode*", "opencl:0*", "bytecode*", "opencl:0*", "bytecode*", "bytecode"), sim.ran);
  }

  /**
   * The pool's runs are all set aside, the JIT compiling through them, but they still bound what the pool does:
   * the device, 5 times slower than them, is not run beyond its samples to warm up.
   */
  @Test
  void runsSetAsideBoundTheCandidatesTime() {
    Simulated sim = new Simulated().cost(BYTECODE, 0, 2.0).cost(JVM, 0, 1.0).compilingDuring(JVM, 6, 0.5)
        .warming(OPENCL, 9, 8, 7, 6, 5, 4, 3);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM, OPENCL));
    assertEquals("jvm", sim.settle(k, N).candidate());
    assertEquals(3, sim.ran.stream().filter(r -> r.equals("opencl:0*")).count(), sim.ran::toString);
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
