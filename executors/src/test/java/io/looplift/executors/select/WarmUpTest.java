package io.looplift.executors.select;

import static io.looplift.executors.select.Simulated.BYTECODE;
import static io.looplift.executors.select.Simulated.JVM;
import static io.looplift.executors.select.Simulated.KEY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The original bytecode is timed only once the JIT can have compiled its loop: a loop that runs as bytecode only
 * when the selection lets it is interpreted for its first {@link Measurements#WARM_ITERATIONS} iterations, and a
 * point taken then would make an offload win that loses to it for the rest of the program.
 */
class WarmUpTest {
  private final Simulated sim = new Simulated();

  private SelectedKernel kernel(long warmUp) {
    return Selector.builder("1.0", 8).clock(() -> sim.now).warmUp(warmUp).build().kernel(KEY, List.of(BYTECODE, JVM));
  }

  /**
   * A nest of 20,000 outer iterations of 10 each, whose bytecode takes 3 ns a unit of work until its loop has run
   * 100,000 iterations and 0.5 from then on, against the pool's 1: five launches of the bytecode run cold (the
   * pool measured between the first three), and then it is measured and wins. Timed from its first run, it loses.
   */
  @Test
  void theOriginalLoopIsTimedOnlyOnceItsLoopHasRunLongEnoughToBeCompiled() {
    sim.compiledAfter(BYTECODE, Measurements.WARM_ITERATIONS, 3, 0.5).cost(JVM, 0, 1);
    SelectedKernel k = kernel(Measurements.WARM_ITERATIONS);
    assertEquals("bytecode", sim.settle(k, 20_000, 10).candidate());
    List<String> alternating = List.of("bytecode*", "jvm*", "bytecode*", "jvm*", "bytecode*", "jvm*");
    assertEquals(alternating, sim.ran.subList(0, 6), "the pool's runs go between the bytecode's cold ones");
    assertEquals(Collections.nCopies(5, "bytecode*"), sim.ran.subList(6, 11), "two cold runs left, then three timed");
    assertEquals(5 + 3 + 3, sim.measuringRuns());
    assertEquals(5.0, k.report().candidates().get("bytecode"), 1e-9, "its compiled time, per outer iteration");

    Simulated before = new Simulated();
    before.compiledAfter(BYTECODE, Measurements.WARM_ITERATIONS, 3, 0.5).cost(JVM, 0, 1);
    SelectedKernel timedCold = Selector.builder("1.0", 8).clock(() -> before.now).warmUp(0).build()
        .kernel(KEY, List.of(BYTECODE, JVM));
    assertEquals("jvm", before.settle(timedCold, 20_000, 10).candidate());
  }

  /** A launch of 2^24 iterations runs 99% of them compiled: its first run is timed. */
  @Test
  void aLongLaunchIsTimedFromItsFirstRun() {
    sim.compiledAfter(BYTECODE, Measurements.WARM_ITERATIONS, 0.5, 0.5).cost(JVM, 0, 1);
    SelectedKernel k = kernel(Measurements.WARM_ITERATIONS);
    assertEquals("bytecode", sim.settle(k, 1 << 24, 1).candidate());
    assertEquals(6, sim.measuringRuns());
  }

  /**
   * Outer iterations of 5 µs each (a nest whose inner loops do the work, compiled at once): interpreting the
   * outer loop's own bytecode would not show, so the first run is timed.
   */
  @Test
  void outerIterationsOfMicrosecondsAreTimedFromTheFirstRun() {
    sim.cost(BYTECODE, 0, 0.5).cost(JVM, 0, 1);
    SelectedKernel k = kernel(Measurements.WARM_ITERATIONS);
    assertEquals("bytecode", sim.settle(k, 1_000, 10_000).candidate());
    assertEquals(6, sim.measuringRuns());
  }

  /** Launches of 100 iterations would take 1,000 runs to warm up: after 16 set aside, the runs are timed. */
  @Test
  void atMostSixteenRunsAreSetAsideAsCold() {
    sim.cost(BYTECODE, 0, 0.5).cost(JVM, 0, 1);
    SelectedKernel k = kernel(Measurements.WARM_ITERATIONS);
    assertEquals("bytecode", sim.settle(k, 100, 1).candidate());
    assertEquals(Measurements.COLD_RUNS + 6, sim.measuringRuns());
  }

  /** Launches that ran the bytecode as chosen count towards its warm-up: a new size is timed from its first run. */
  @Test
  void chosenBytecodeRunsCountTowardsTheWarmUp() {
    sim.cost(BYTECODE, 0, 0.5).cost(JVM, 0, 1);
    SelectedKernel k = kernel(Measurements.WARM_ITERATIONS);
    sim.settle(k, 1_000, 1);
    for (int i = 0; i < 100; i++) sim.launch(k, 1_000, 1);
    List<String> chosen = sim.ran.subList(sim.ran.size() - 100, sim.ran.size());
    assertTrue(chosen.stream().allMatch(c -> c.equals("bytecode") || c.equals("jvm*")),
        "the bytecode as chosen, but for re-checks of the pool: " + chosen);
    long measured = sim.measuringRuns();
    sim.settle(k, 50_000, 1);
    assertEquals(measured + 6, sim.measuringRuns(), "3 runs of each at the new size, none set aside");
  }
}
