package io.looplift.executors.opencl;

import static io.looplift.executors.opencl.OpenClTestSupport.load;
import static io.looplift.executors.opencl.OpenClTestSupport.store;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.executors.ExecutionException;
import io.looplift.executors.ExecutionOptions;
import io.looplift.executors.FlushSession;
import io.looplift.executors.Launch;
import io.looplift.ir.Acc;
import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Const;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Node;
import io.looplift.ir.ReduceOp;
import io.looplift.ir.Reduction;
import io.looplift.ir.Type;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An OpenCL executor's flush session on a real device: arrays go to the device once, stay there between
 * launches, and reach the program's arrays only at commit, in full or not at all. Subclasses say how the
 * executor reaches the device.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class OpenClSessionCases {
  private static final int N = 10_000;
  private static final long BYTES = N * 8L;
  private Path cacheDir;
  private OpenClExecutor ocl;

  /** An executor on the device under test with programs cached in {@code cacheDir}. */
  abstract OpenClExecutor open(Path cacheDir) throws ExecutionException;

  @BeforeAll
  void openShared(@TempDir Path dir) throws ExecutionException {
    cacheDir = dir;
    ocl = open(dir);
  }

  @AfterAll
  void close() {
    if (ocl != null) ocl.close();
  }

  /** {@code out[i] = in[i] * 2 + 1} over doubles: arrays in, out. */
  private static Launch twicePlusOne(double[] in, double[] out) {
    Node v = Binary.of(BinaryOp.ADD, Binary.of(BinaryOp.MUL, load(0, Type.DOUBLE), Const.ofDouble(2)), Const.ofDouble(1));
    LoopTemplate t = OpenClTestSupport.map(List.of(Type.DOUBLE, Type.DOUBLE), List.of(), List.of(store(1, Type.DOUBLE, v)));
    return new Launch(t, new Object[] {in, out}, new long[0], new long[0], 0, 1, in.length);
  }

  /** {@code out[i] = a[i] - b[i]} over doubles: arrays a, b, out. */
  private static Launch difference(double[] a, double[] b, double[] out) {
    Node v = Binary.of(BinaryOp.SUB, load(0, Type.DOUBLE), load(1, Type.DOUBLE));
    LoopTemplate t = OpenClTestSupport.map(List.of(Type.DOUBLE, Type.DOUBLE, Type.DOUBLE), List.of(),
        List.of(store(2, Type.DOUBLE, v)));
    return new Launch(t, new Object[] {a, b, out}, new long[0], new long[0], 0, 1, a.length);
  }

  private static double[] ramp() {
    double[] a = new double[N];
    for (int k = 0; k < N; k++) a[k] = k * 0.25 - 7;
    return a;
  }

  @Test
  void arraysGoToTheDeviceOnceAndComeBackAtCommit() throws ExecutionException {
    double[] a = ramp();
    double[] b = new double[N];
    double[] c = new double[N];
    try (FlushSession session = ocl.session()) {
      Launch first = twicePlusOne(a, b);
      Launch second = difference(b, a, c);
      assertTrue(session.takes(first) && session.takes(second));
      assertFalse(session.execute(first, ExecutionOptions.EXACT), "started, not waited for");
      assertFalse(session.execute(second, ExecutionOptions.EXACT));
      assertArrayEquals(new double[N], b, "nothing is the program's before the commit");
      assertArrayEquals(new double[N], c);

      FlushSession.Transfer back = session.commit();
      assertEquals(2 * BYTES, first.transferBytes(), "a and b copied in");
      assertEquals(BYTES, second.transferBytes(), "only c copied in: b and a are the device's already");
      assertTrue(first.deviceNanos() > 0 && second.deviceNanos() > 0, "the kernels' times, known at the commit");
      assertEquals(2 * BYTES, back.bytes(), "b and c read back, a not (never written)");
      for (int k = 0; k < N; k++) {
        assertEquals(a[k] * 2 + 1, b[k], "b[" + k + "]");
        assertEquals(b[k] - a[k], c[k], "c[" + k + "]");
      }
      assertEquals(FlushSession.Transfer.NONE, session.commit(), "nothing is left to read back");
    }
  }

  @Test
  void anArrayNothingReadsAfterTheFlushStaysOnTheDevice() throws ExecutionException {
    double[] a = ramp();
    double[] temp = new double[N];
    double[] c = new double[N];
    try (FlushSession session = ocl.session()) {
      session.unread(temp);
      session.execute(twicePlusOne(a, temp), ExecutionOptions.EXACT);
      session.execute(difference(temp, a, c), ExecutionOptions.EXACT);
      assertEquals(BYTES, session.commit().bytes(), "only c read back");
      assertArrayEquals(new double[N], temp);
      for (int k = 0; k < N; k++) assertEquals(a[k] * 2 + 1 - a[k], c[k], "c[" + k + "]");
    }
  }

  @Test
  void anArrayChangedOutsideTheSessionGoesToTheDeviceAgain() throws ExecutionException {
    double[] a = ramp();
    double[] b = new double[N];
    try (FlushSession session = ocl.session()) {
      session.execute(twicePlusOne(a, b), ExecutionOptions.EXACT);
      session.commit();
      a[17] = 1000; // what another executor would do
      session.changed(new Object[] {a});
      Launch again = twicePlusOne(a, b);
      session.execute(again, ExecutionOptions.EXACT);
      session.commit();
      assertEquals(BYTES, again.transferBytes(), "a copied in again, b is still the device's");
      assertEquals(2001, b[17]);
      assertEquals(a[18] * 2 + 1, b[18]);
    }
  }

  @Test
  void aReductionReadsTheDevicesCopyAndItsSumIsTheCallersAtOnce() throws ExecutionException {
    double[] a = ramp();
    double[] b = new double[N];
    Node e = load(0, Type.DOUBLE);
    LoopTemplate sum = new LoopTemplate(List.of(Type.DOUBLE), List.of(), List.of(Type.DOUBLE), List.of(),
        List.of(new Reduction(0, Type.DOUBLE, Binary.of(BinaryOp.ADD, new Acc(0, Type.DOUBLE), e), ReduceOp.ADD, e)));
    Launch total = new Launch(sum, new Object[] {b}, new long[0], new long[] {Double.doubleToRawLongBits(0.5)}, 0, 1, N);
    try (FlushSession session = ocl.session()) {
      session.execute(twicePlusOne(a, b), ExecutionOptions.EXACT);
      assertTrue(session.takes(total));
      // Any order sums these exactly: multiples of 1/2 far below 2^52.
      assertTrue(session.execute(total, new ExecutionOptions(true, false)), "a reduction completes at once");
      double expected = 0.5;
      for (int k = 0; k < N; k++) expected += a[k] * 2 + 1;
      assertEquals(expected, Double.longBitsToDouble(total.accumulators()[0]), "summed from the device's b");
      assertArrayEquals(new double[N], b, "b itself comes back at the commit");
      session.commit();
      assertEquals(a[9] * 2 + 1, b[9]);
    }
  }

  @Test
  void launchesOverArraysOfArraysRunOutsideSessions() {
    double[][] x = {ramp(), ramp()};
    Launch dots = new Launch(Nests.rowDots(), new Object[] {x, x, new double[2]}, new long[0], new long[0], 0, 1, 2);
    try (FlushSession session = ocl.session()) {
      assertFalse(session.takes(dots), "a row may be another argument's array");
    }
  }

  @Test
  void aSessionKeepsNoMoreThanItsLimit() throws ExecutionException {
    double[] a = ramp();
    double[] b = new double[N];
    double[] c = new double[N];
    try (FlushSession session = ocl.session(2 * BYTES)) {
      Launch first = twicePlusOne(a, b);
      assertTrue(session.takes(first));
      session.execute(first, ExecutionOptions.EXACT);
      assertFalse(session.takes(difference(b, a, c)), "c would make three arrays");
      assertTrue(session.takes(twicePlusOne(b, a)), "a and b are kept already");
      session.commit();
      session.changed(new Object[] {b});
      assertTrue(session.takes(difference(a, a, c)), "b's place is free again");
    }
  }

  /** The device side goes away with a launch started: before the second launch, or before the commit. */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void aFailureLeavesTheProgramsArraysAsTheyWere(boolean foundAtCommit) throws ExecutionException {
    OpenClExecutor own = open(cacheDir);
    double[] a = ramp();
    double[] b = new double[N];
    double[] c = new double[N];
    try (FlushSession session = own.session()) {
      session.execute(twicePlusOne(a, b), ExecutionOptions.EXACT);
      if (foundAtCommit) session.execute(difference(b, a, c), ExecutionOptions.EXACT);
      own.close();
      if (foundAtCommit) {
        assertThrows(ExecutionException.class, session::commit);
      } else {
        assertThrows(ExecutionException.class, () -> session.execute(difference(b, a, c), ExecutionOptions.EXACT));
      }
      assertEquals(FlushSession.Transfer.NONE, session.commit(), "the session forgot the uncommitted results");
      assertArrayEquals(new double[N], b);
      assertArrayEquals(new double[N], c);
    } finally {
      own.close();
    }
  }
}
