package io.looplift.executors.select;

import static io.looplift.executors.select.Simulated.BYTECODE;
import static io.looplift.executors.select.Simulated.JVM;
import static io.looplift.executors.select.Simulated.KEY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A candidate that lost its first measurement is run again later, however the caller runs the winner. */
class RecheckTest {
  private static final long N = 1 << 20;

  @Test
  void rechecksAreDueAtTheSecondEighthAndThirtySecondLaunchAfterAPick() {
    assertEquals(2, SelectedKernel.nextRecheck(0));
    assertEquals(2, SelectedKernel.nextRecheck(1));
    assertEquals(8, SelectedKernel.nextRecheck(2));
    assertEquals(32, SelectedKernel.nextRecheck(8));
    assertEquals(1 << 29, SelectedKernel.nextRecheck((1 << 29) - 1));
    assertEquals(Integer.MAX_VALUE, SelectedKernel.nextRecheck(1 << 29), "none after the last an int holds");
  }

  /**
   * The pool's first runs are slow (its kernel still compiling, another process on a core), so the bytecode wins
   * the measurement; the caller then runs the bytecode without asking, as the runtime does, for as long as the
   * choice allows. The re-check still comes, finds the pool fast, and the choice follows.
   */
  @Test
  void aCallerRunningTheBytecodeWithoutAskingStillGetsTheRecheck() {
    Simulated sim = new Simulated().cost(BYTECODE, 0, 1.0).warming(JVM, 1.2, 1.2, 1.2, 0.3);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    List<Choice> asked = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      Choice c = sim.launchAsTold(k, N);
      if (c != null) asked.add(c);
    }
    int pick = 0;
    while (asked.get(pick).measuring()) pick++;
    assertEquals("bytecode", asked.get(pick).candidate(), asked::toString);
    assertEquals(2, asked.get(pick).untilAsked(), "asked again at the second launch after the pick");
    assertTrue(asked.get(pick + 1).toString().startsWith("jvm (re-checking)"), asked::toString);
    assertEquals("jvm", k.report().executor(), asked::toString);
    assertEquals("jvm", sim.ran.get(sim.ran.size() - 1), sim.ran::toString);
  }

  @Test
  void launchesRunWithoutAskingCountTowardsTheSchedule() {
    Simulated sim = new Simulated().cost(BYTECODE, 0, 1.0).cost(JVM, 0, 1.1);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    assertEquals("bytecode", sim.settle(k, N).candidate());
    Choice recheck = null;
    for (int i = 0; i < 2 && recheck == null; i++) {
      Choice c = sim.launchAsTold(k, N);
      if (c != null && c.measuring()) recheck = c;
    }
    assertNotNull(recheck, sim.ran::toString);
    // The pool lost again: the bytecode until the eighth launch after the pick, this one and four not asked.
    Choice next = sim.launchAsTold(k, N);
    assertEquals("bytecode", next.candidate());
    assertEquals(5, next.untilAsked());
    for (int i = 0; i < 4; i++) assertNull(sim.launchAsTold(k, N), "run without asking");
    assertTrue(sim.launchAsTold(k, N).measuring(), "the re-check due at the eighth launch");
  }
}
