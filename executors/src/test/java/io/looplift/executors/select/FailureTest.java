package io.looplift.executors.select;

import static io.looplift.executors.select.Simulated.BYTECODE;
import static io.looplift.executors.select.Simulated.JVM;
import static io.looplift.executors.select.Simulated.KEY;
import static io.looplift.executors.select.Simulated.OPENCL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A candidate that fails is dropped for the kernel, and the launch runs on the next best. */
class FailureTest {
  private final Simulated sim = new Simulated().cost(BYTECODE, 0, 1.0).cost(JVM, 20_000, 0.2)
      .cost(OPENCL, 50_000, 0.05);

  @Test
  void aCandidateFailingWhileMeasuredIsDroppedAndTheOthersDecide() {
    sim.failing(OPENCL);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM, OPENCL));
    assertEquals("jvm", sim.settle(k, 1 << 24).candidate());
    assertEquals(5, sim.measuringRuns(), "the bytecode settled by two runs of 17 ms, five times behind");
    assertFalse(sim.ran.stream().anyMatch(r -> r.startsWith("opencl")));
    SelectionReport r = k.report();
    assertEquals(Map.of("opencl:0", "opencl:0 threw"), r.dropped());
    Simulated.assertMentions(r.summary(), "opencl:0 dropped: opencl:0 threw");
  }

  @Test
  void theChosenCandidateFailingFallsBackToTheNextBestWithoutMeasuring() {
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM, OPENCL));
    Choice chosen = sim.settle(k, 1 << 24);
    assertEquals("opencl:0", chosen.candidate());
    Choice next = k.failed(sim.launch(k, 1 << 24), "verify: element 7 differs").orElseThrow();
    assertEquals("jvm", next.candidate());
    assertFalse(next.measuring());
    for (int i = 0; i < 10; i++) assertEquals("jvm", sim.launch(k, 1 << 24).candidate());
  }

  @Test
  void anAbandonedMeasuringRunIsHandedOutAgainAndTheCandidateStays() {
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    Choice first = k.choose(1 << 20, 1, 0).orElseThrow();
    assertEquals("bytecode", first.candidate());
    k.abandon(first); // the original loop threw the program's own exception
    assertEquals("bytecode", k.choose(1 << 20, 1, 0).orElseThrow().candidate(), "its turn again");
    assertEquals(Map.of(), k.report().dropped());
  }

  @Test
  void whenEveryCandidateFailedThereIsNothingToRun() {
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(JVM, OPENCL));
    Choice c = k.choose(1 << 20, 1, 0).orElseThrow();
    Optional<Choice> next = k.failed(c, "boom");
    assertTrue(next.isPresent());
    assertEquals("the only candidate left ([" + c.candidate() + "] failed)", next.get().why());
    assertEquals(Optional.empty(), k.failed(next.get(), "boom"));
    assertEquals(Optional.empty(), k.choose(1 << 20, 1, 0));
    assertEquals("every candidate failed", k.report().why());
  }
}
