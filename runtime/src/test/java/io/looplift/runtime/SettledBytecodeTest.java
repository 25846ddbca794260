package io.looplift.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Which launches a settled bytecode choice covers, and that the selection is asked again now and then. */
class SettledBytecodeTest {
  private static final long[] SCALARS = {7, 0, 0};

  @Test
  void aFlatLoopIsCoveredAtTheSameTripCountWhateverItsParametersAndArrays() {
    SettledBytecode memo = SettledBytecode.of(false, 1000, SCALARS, 1, new Object[] {new float[1000]}, "why");
    assertTrue(memo.covers(1000, new long[] {8, 0, 0}, new Object[] {new float[5000]}));
    assertFalse(memo.covers(1001, SCALARS, new Object[] {new float[1000]}));
    assertEquals("why", memo.reason);
  }

  @Test
  void aNestIsCoveredOnlyWithTheSameParametersAndArrayLengths() {
    Object[] arrays = {new double[64], new double[64][]};
    SettledBytecode memo = SettledBytecode.of(true, 8, SCALARS, 1, arrays, "why");
    assertTrue(memo.covers(8, new long[] {7, 3, 0}, new Object[] {new double[64], new double[64][]}));
    assertFalse(memo.covers(8, new long[] {9, 0, 0}, arrays), "another parameter: other inner trip counts");
    assertFalse(memo.covers(8, SCALARS, new Object[] {new double[65], new double[64][]}), "another length");
  }

  @Test
  void everyRecheckthLaunchGoesToTheSelectionAgain() {
    SettledBytecode memo = SettledBytecode.of(false, 10, SCALARS, 1, new Object[] {new int[10]}, "why");
    int asked = 0;
    for (int k = 0; k < 3 * SettledBytecode.RECHECK; k++) {
      if (!memo.covers(10, SCALARS, new Object[] {new int[10]})) asked++;
    }
    assertEquals(3, asked);
  }
}
