package io.looplift.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Each site's short runs are counted apart; the count reaching {@link LoopBridge#SHORT_RUNS_TOLD} is said once. */
class ShortRunsTest {
  @Test
  void aSiteIsToldOnceWhenItsCountReachesTheMark() {
    ShortRuns runs = new ShortRuns();
    int told = 0;
    for (int i = 0; i < 3 * LoopBridge.SHORT_RUNS_TOLD; i++) {
      if (runs.count(5)) {
        told++;
        assertEquals(LoopBridge.SHORT_RUNS_TOLD - 1, i, "told at the run that made the count");
      }
    }
    assertEquals(1, told);
  }

  @Test
  void sitesCountApartAndIdsBeyondTheFirstArrayAreCounted() {
    ShortRuns runs = new ShortRuns();
    for (int i = 0; i < LoopBridge.SHORT_RUNS_TOLD - 1; i++) {
      assertFalse(runs.count(1));
      assertFalse(runs.count(100_000));
    }
    assertFalse(runs.count(2), "another site's count");
    assertTrue(runs.count(100_000));
    assertTrue(runs.count(1));
    assertFalse(runs.count(-1), "no site");
  }
}
