package io.looplift.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which launches a settled bytecode choice covers, that the selection is asked again now and then, and how long
 * its site may rest.
 */
class SettledBytecodeTest {
  private static final long[] SCALARS = {7, 0, 0};
  private static final Object NO_DEVICES = List.of();
  private static final long NEVER = Long.MAX_VALUE;

  @Test
  void aFlatLoopIsCoveredAtTheSameTripCountWhateverItsParametersAndArrays() {
    SettledBytecode memo = memo(false, 1000, new Object[] {new float[1000]}, NEVER);
    assertTrue(memo.covers(1000, new long[] {8, 0, 0}, new Object[] {new float[5000]}, NO_DEVICES));
    assertFalse(memo.covers(1001, SCALARS, new Object[] {new float[1000]}, NO_DEVICES));
    assertEquals("why", memo.reason);
  }

  @Test
  void aNestIsCoveredOnlyWithTheSameParametersAndArrayLengths() {
    Object[] arrays = {new double[64], new double[64][]};
    SettledBytecode memo = memo(true, 8, arrays, NEVER);
    assertTrue(memo.covers(8, new long[] {7, 3, 0}, new Object[] {new double[64], new double[64][]}, NO_DEVICES));
    assertFalse(memo.covers(8, new long[] {9, 0, 0}, arrays, NO_DEVICES), "another parameter: other inner trip counts");
    assertFalse(memo.covers(8, SCALARS, new Object[] {new double[65], new double[64][]}, NO_DEVICES), "another length");
  }

  @Test
  void theSelectionIsAskedAgainAfterAtMostRecheckLaunchesAndToldHowManyWereDeclined() {
    SettledBytecode memo = memo(NEVER);
    assertEquals(SettledBytecode.RECHECK - 1, declinedInARow(memo, NO_DEVICES));
    assertEquals(SettledBytecode.RECHECK - 1, memo.declined(0));
  }

  @Test
  void launchesWhoseWorkWouldBringDevicesInAreNotDeclined() {
    SettledBytecode memo = memo(5);
    assertEquals(4, declinedInARow(memo, NO_DEVICES), "the fifth launch must ask, and devices join on it");
    SettledBytecode last = memo(1);
    assertEquals(0, declinedInARow(last, NO_DEVICES));
  }

  @Test
  void devicesOpeningSinceEndTheMemo() {
    SettledBytecode memo = memo(NEVER);
    assertTrue(memo.covers(10, SCALARS, new Object[] {new int[10]}, NO_DEVICES));
    assertFalse(memo.covers(10, SCALARS, new Object[] {new int[10]}, List.of("opencl:0")));
  }

  @Test
  void aSelectionThatWillNotBeAskedAgainRestsItsSiteForGood() {
    SettledBytecode memo = memo(NEVER);
    assertEquals(NEVER, memo.restFor(5));
    assertEquals(-1, memo.restFor(6), "it rests already");
    assertFalse(memo.covers(10, SCALARS, new Object[] {new int[10]}, NO_DEVICES),
        "a launch that reaches the dispatcher all the same asks the selection");
  }

  @Test
  void aSiteRestsUntilTheSelectionIsDueToBeAskedAtThePaceOfItsLaunches() {
    SettledBytecode memo = memo(1_000);
    assertEquals(-1, memo.restFor(0), "no pace yet");
    for (int i = 0; i < 10; i++) assertTrue(memo.covers(10, SCALARS, new Object[] {new int[10]}, NO_DEVICES));
    long now = 100_000_000; // 10 launches declined in 100 ms
    assertEquals((1_000 - 1 - 10) * 10_000_000L, memo.restFor(now));
    assertEquals(10 + 50, memo.declined(now + 500_000_000), "the launches of its rest, at the same pace, count");
  }

  @Test
  void aRestShorterThanItsCostOrOfUnknownLengthIsNotTaken() {
    SettledBytecode soon = memo(20);
    for (int i = 0; i < 10; i++) soon.covers(10, SCALARS, new Object[] {new int[10]}, NO_DEVICES);
    assertEquals(-1, soon.restFor(100_000_000), "9 launches of 10 ms left: under " + SettledBytecode.REST_MIN_NANOS);
    SettledBytecode unknown = SettledBytecode.of(false, 10, SCALARS, 1, new Object[] {new int[10]}, "why", NEVER, 0,
        0, NO_DEVICES, false);
    assertEquals(-1, unknown.restFor(1));
    SettledBytecode opening = SettledBytecode.of(false, 10, SCALARS, 1, new Object[] {new int[10]}, "why", NEVER, 10,
        0, NO_DEVICES, true);
    assertEquals(-1, opening.restFor(1), "devices opening may change the choice");
    SettledBytecode undone = memo(NEVER);
    undone.restFor(1);
    undone.unrest();
    assertTrue(undone.covers(10, SCALARS, new Object[] {new int[10]}, NO_DEVICES), "it did not rest after all");
  }

  /** A flat loop's memo of 10 trips, its length 10, made at time 0. */
  private static SettledBytecode memo(long beforeAsking) {
    return memo(false, 10, new Object[] {new int[10]}, beforeAsking);
  }

  private static SettledBytecode memo(boolean nest, long trips, Object[] arrays, long beforeAsking) {
    return SettledBytecode.of(nest, trips, SCALARS, 1, arrays, "why", beforeAsking, trips, 0, NO_DEVICES, false);
  }

  private static int declinedInARow(SettledBytecode memo, Object devices) {
    int declined = 0;
    while (declined < 10 * SettledBytecode.RECHECK && memo.covers(10, SCALARS, new Object[] {new int[10]}, devices)) {
      declined++;
    }
    return declined;
  }
}
