package io.looplift.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MutableCallSite;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Each site's short runs are counted apart, until it runs long; the count reaching
 * {@link LoopBridge#SHORT_RUNS_TOLD} is said once.
 */
class ShortRunsTest {
  @Test
  void aSiteIsToldOnceWhenItsCountReachesTheMark() {
    ShortRuns runs = new ShortRuns((c, id) -> { });
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
    ShortRuns runs = new ShortRuns((c, id) -> { });
    for (int i = 0; i < LoopBridge.SHORT_RUNS_TOLD - 1; i++) {
      assertFalse(runs.count(1));
      assertFalse(runs.count(100_000));
    }
    assertFalse(runs.count(2), "another site's count");
    assertTrue(runs.count(100_000));
    assertTrue(runs.count(1));
    assertFalse(runs.count(-1), "no site");
  }

  @Test
  void aSiteThatRanLongIsNoLongerCounted() {
    ShortRuns runs = new ShortRuns((c, id) -> { });
    for (int i = 0; i < LoopBridge.SHORT_RUNS_TOLD - 1; i++) runs.count(9);
    runs.ranLong(9);
    runs.ranLong(9);
    runs.ranLong(-1);
    runs.ranLong(100_000);
    for (int i = 0; i < 2; i++) assertFalse(runs.count(9), "would have made the mark");
    for (int i = 0; i < LoopBridge.SHORT_RUNS_TOLD - 1; i++) runs.count(100_000);
    assertFalse(runs.count(100_000));
    for (int i = 0; i < LoopBridge.SHORT_RUNS_TOLD - 1; i++) runs.count(10);
    assertTrue(runs.count(10), "other sites count on");
  }

  @Test
  void aCounterCountsUntilItsSiteRunsLongThenDoesNothing() throws Throwable {
    List<String> told = new ArrayList<>();
    ShortRuns runs = new ShortRuns((c, id) -> told.add(c.getSimpleName() + " " + id));
    MutableCallSite counter = runs.counter(4, ShortRunsTest.class);
    assertSame(counter, runs.counter(4, String.class), "one per site, linked for the first caller");
    MethodHandle count = counter.dynamicInvoker();
    for (int i = 0; i < LoopBridge.SHORT_RUNS_TOLD - 1; i++) count.invokeExact();
    runs.tellMarked();
    assertEquals(List.of(), told, "not before the mark");
    count.invokeExact();
    count.invokeExact();
    runs.tellMarked();
    runs.tellMarked();
    assertEquals(List.of("ShortRunsTest 4"), told, "once, at the first look after the mark");

    MutableCallSite other = runs.counter(6, String.class);
    MethodHandle countOther = other.dynamicInvoker();
    for (int i = 0; i < LoopBridge.SHORT_RUNS_TOLD - 1; i++) countOther.invokeExact();
    runs.ranLong(6);
    countOther.invokeExact();
    runs.tellMarked();
    assertEquals(List.of("ShortRunsTest 4"), told, "the mark's run came after a long one");
    runs.ranLong(8);
    MethodHandle late = runs.counter(8, String.class).dynamicInvoker();
    for (int i = 0; i < LoopBridge.SHORT_RUNS_TOLD; i++) late.invokeExact();
    runs.tellMarked();
    assertEquals(1, told.size(), "linked after a long run, it counts nothing");

    MethodHandle beyond = runs.counter(1000, Integer.class).dynamicInvoker();
    for (int i = 0; i < LoopBridge.SHORT_RUNS_TOLD; i++) beyond.invokeExact();
    runs.tellMarked();
    assertEquals(List.of("ShortRunsTest 4", "Integer 1000"), told, "a site past the first counts");
  }
}
