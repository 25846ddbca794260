package io.looplift.executors.select;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.executors.select.CostModel.Estimate;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Estimates between, below and above measured sizes. */
class CostModelTest {
  private static Point point(long work, long nanos) {
    return new Point(Size.classOf(work), work, work, nanos, 0, false);
  }

  /** {@code 20 µs + 0.2 ns * work}, measured at 2^10 and 2^20. */
  private static final List<Point> AFFINE = List.of(point(1 << 10, 20_000 + 204), point(1 << 20, 20_000 + 209_715));

  @Test
  void betweenMeasuredSizesAnAffineCostIsExact() {
    Estimate e = CostModel.estimate(AFFINE, 1 << 15);
    assertEquals(20_000 + 0.2 * (1 << 15), e.nanos(), 1);
    assertTrue(e.bracketed());
  }

  @Test
  void outsideTheMeasuredSizesTheNearestSegmentExtendsButIsNotBracketed() {
    Estimate above = CostModel.estimate(AFFINE, 1 << 25);
    assertEquals(20_000 + 0.2 * (1 << 25), above.nanos(), 40);
    assertFalse(above.bracketed());
    Estimate below = CostModel.estimate(AFFINE, 1 << 5);
    assertEquals(20_000, below.nanos(), 200);
    assertFalse(below.bracketed());
  }

  @Test
  void aFallingSegmentNeitherRisesWithLessWorkNorFallsWithMore() {
    List<Point> falling = List.of(point(1 << 10, 5_000), point(1 << 11, 4_000));
    assertEquals(5_000, CostModel.estimate(falling, 1 << 8).nanos(), 1e-9);
    assertEquals(4_000, CostModel.estimate(falling, 1 << 20).nanos(), 1e-9);
  }

  @Test
  void aSuperLinearSegmentNeverMakesSmallLaunchesFree() {
    List<Point> steep = List.of(point(1 << 10, 1_000), point(1 << 11, 4_000));
    assertEquals(1_000.0 / 4, CostModel.estimate(steep, 1 << 8).nanos(), 1e-9);
  }

  @Test
  void oneMeasuredSizeScalesProportionallyAndNoneEstimatesNothing() {
    Estimate e = CostModel.estimate(List.of(point(1000, 5_000)), 1010);
    assertEquals(5_050, e.nanos(), 1e-9);
    assertTrue(e.bracketed(), "the same size class");
    assertNull(CostModel.estimate(List.of(), 1000));
  }
}
