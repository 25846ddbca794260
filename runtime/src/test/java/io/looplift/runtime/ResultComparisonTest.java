package io.looplift.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.ir.Type;
import org.junit.jupiter.api.Test;

class ResultComparisonTest {
  private static final WrittenRegion ALL_OF_SLOT_0 = new WrittenRegion(0, -1, 0, 4);

  @Test
  void nanEqualsNanButSignedZerosDifferWhenExact() {
    ResultComparison c = new ResultComparison();
    float nan = Float.intBitsToFloat(0x7fc00001); // another NaN than Float.NaN
    assertTrue(c.region(ALL_OF_SLOT_0, Type.FLOAT, new float[] {1, Float.NaN, 3, 4}, new float[] {1, nan, 3, 4},
        Bound.EXACT));
    assertEquals(0, c.worst());
    assertFalse(c.region(ALL_OF_SLOT_0, Type.FLOAT, new float[] {1, 2, -0f, 4}, new float[] {1, 2, 0f, 4},
        Bound.EXACT));
    assertEquals(new ResultComparison.Difference("array 0[2]", "0.0 (0x0)", "-0.0 (0x80000000)"), c.first());
    assertEquals(1, c.worst(), "-0.0 is next to 0.0");
  }

  @Test
  void worstCountsUlpsAcrossZeroAndStopsAtTheFirstValueOutOfBound() {
    ResultComparison c = new ResultComparison();
    double tiny = Double.MIN_VALUE;
    Bound loose = new Bound(1e-300, 0);
    // -tiny, -0.0, 0.0, tiny: 3 ulps from -tiny to tiny.
    assertTrue(c.region(ALL_OF_SLOT_0, Type.DOUBLE, new double[] {0, -tiny, 2, 3}, new double[] {0, tiny, 2, 3}, loose));
    assertEquals(3, c.worst());
    assertNull(c.first());
    assertFalse(c.region(ALL_OF_SLOT_0, Type.DOUBLE, new double[] {0, 1, 5, 7}, new double[] {0, 1, 2, 3}, loose));
    assertEquals("array 0[2]", c.first().location());
  }

  @Test
  void integersAreAlwaysExact() {
    ResultComparison c = new ResultComparison();
    assertFalse(c.reduction(0, Type.INT, 7, 10, new Bound(100, 1)));
    assertEquals(new ResultComparison.Difference("reduction 0", "10", "7"), c.first());
    assertEquals(3, c.worst());
    ResultComparison rows = new ResultComparison();
    assertFalse(rows.region(new WrittenRegion(1, 2, 0, 3), Type.BOOLEAN, new boolean[] {true, false, true},
        new boolean[] {true, true, true}, Bound.EXACT));
    assertEquals(new ResultComparison.Difference("array 1[2][1]", "true", "false"), rows.first());
  }

  @Test
  void aDifferenceOfOppositeInfinitiesIsNeverAdmitted() {
    ResultComparison c = new ResultComparison();
    assertFalse(c.reduction(0, Type.DOUBLE, Double.doubleToRawLongBits(Double.NEGATIVE_INFINITY),
        Double.doubleToRawLongBits(Double.POSITIVE_INFINITY), new Bound(Double.POSITIVE_INFINITY, 0)));
    assertEquals(Long.MAX_VALUE, c.worst(), "saturates");
  }
}
