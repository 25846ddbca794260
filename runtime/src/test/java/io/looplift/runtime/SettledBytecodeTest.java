package io.looplift.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which launches a settled bytecode choice covers, and that the selection is asked again now and then. */
class SettledBytecodeTest {
  private static final long[] SCALARS = {7, 0, 0};
  private static final Object NO_DEVICES = List.of();
  private static final long NEVER = Long.MAX_VALUE;

  @Test
  void aFlatLoopIsCoveredAtTheSameTripCountWhateverItsParametersAndArrays() {
    SettledBytecode memo = SettledBytecode.of(false, 1000, SCALARS, 1, new Object[] {new float[1000]}, "why",
        NEVER, NO_DEVICES);
    assertTrue(memo.covers(1000, new long[] {8, 0, 0}, new Object[] {new float[5000]}, NO_DEVICES));
    assertFalse(memo.covers(1001, SCALARS, new Object[] {new float[1000]}, NO_DEVICES));
    assertEquals("why", memo.reason);
  }

  @Test
  void aNestIsCoveredOnlyWithTheSameParametersAndArrayLengths() {
    Object[] arrays = {new double[64], new double[64][]};
    SettledBytecode memo = SettledBytecode.of(true, 8, SCALARS, 1, arrays, "why", NEVER, NO_DEVICES);
    assertTrue(memo.covers(8, new long[] {7, 3, 0}, new Object[] {new double[64], new double[64][]}, NO_DEVICES));
    assertFalse(memo.covers(8, new long[] {9, 0, 0}, arrays, NO_DEVICES), "another parameter: other inner trip counts");
    assertFalse(memo.covers(8, SCALARS, new Object[] {new double[65], new double[64][]}, NO_DEVICES), "another length");
  }

  @Test
  void theSelectionIsAskedAgainAfterAtMostRecheckLaunchesAndToldHowManyWereDeclined() {
    SettledBytecode memo = SettledBytecode.of(false, 10, SCALARS, 1, new Object[] {new int[10]}, "why", NEVER,
        NO_DEVICES);
    assertEquals(SettledBytecode.RECHECK - 1, declinedInARow(memo, NO_DEVICES));
    assertEquals(SettledBytecode.RECHECK - 1, memo.declined());
  }

  @Test
  void launchesWhoseWorkWouldBringDevicesInAreNotDeclined() {
    SettledBytecode memo = SettledBytecode.of(false, 10, SCALARS, 1, new Object[] {new int[10]}, "why", 5,
        NO_DEVICES);
    assertEquals(4, declinedInARow(memo, NO_DEVICES), "the fifth launch must ask, and devices join on it");
    SettledBytecode last = SettledBytecode.of(false, 10, SCALARS, 1, new Object[] {new int[10]}, "why", 1,
        NO_DEVICES);
    assertEquals(0, declinedInARow(last, NO_DEVICES));
  }

  @Test
  void devicesOpeningSinceEndTheMemo() {
    SettledBytecode memo = SettledBytecode.of(false, 10, SCALARS, 1, new Object[] {new int[10]}, "why", NEVER,
        NO_DEVICES);
    assertTrue(memo.covers(10, SCALARS, new Object[] {new int[10]}, NO_DEVICES));
    assertFalse(memo.covers(10, SCALARS, new Object[] {new int[10]}, List.of("opencl:0")));
  }

  private static int declinedInARow(SettledBytecode memo, Object devices) {
    int declined = 0;
    while (declined < 10 * SettledBytecode.RECHECK && memo.covers(10, SCALARS, new Object[] {new int[10]}, devices)) {
      declined++;
    }
    return declined;
  }
}
