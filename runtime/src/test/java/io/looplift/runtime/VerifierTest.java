package io.looplift.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.executors.ExecutionOptions;
import io.looplift.executors.Executor;
import io.looplift.executors.Launch;
import io.looplift.executors.reference.ReferenceExecutor;
import io.looplift.executors.select.LateDevices;
import io.looplift.executors.select.Offload;
import io.looplift.executors.select.Selector;
import io.looplift.ir.Acc;
import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Call;
import io.looplift.ir.Cond;
import io.looplift.ir.Const;
import io.looplift.ir.Index;
import io.looplift.ir.Length;
import io.looplift.ir.Load;
import io.looplift.ir.Loop;
import io.looplift.ir.LoopShape;
import io.looplift.ir.LoopSite;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.LoopVar;
import io.looplift.ir.Node;
import io.looplift.ir.Param;
import io.looplift.ir.ReduceOp;
import io.looplift.ir.Reduction;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import io.looplift.profiler.Profiler;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Verify mode at the kernel runner: launches run on test executors that spoil results on purpose, and the
 * verifier must catch what it checks, give the program the reference's results and move the kernel on.
 */
class VerifierTest {
  private static final Node I = Index.I;

  private final List<String> lines = new ArrayList<>();
  private final Profiler profiler = new Profiler();
  private final Log log = new Log(Log.Level.QUIET, lines::add);
  private final SiteTable sites = new SiteTable(profiler, log);

  private KernelRunner runner(VerifyPolicy policy, ExecutionOptions options, Executor... executors) {
    profiler.verifyMode(policy.mode().value(), policy.every());
    Verifier verifier = policy.mode() == VerifyPolicy.Mode.OFF ? null
        : new Verifier(policy, new ReferenceExecutor(), options, profiler, log);
    List<Offload> offloads = new ArrayList<>();
    for (Executor x : executors) offloads.add(Offload.named(x));
    Selector forced = Selector.builder("test", 2).forced("executor=test").build();
    Selections selections = new Selections(forced, offloads, LateDevices.none(), false, options, profiler);
    return new KernelRunner(selections, options, profiler, log, System::nanoTime, verifier);
  }

  private KernelRunner runner(VerifyPolicy policy, Executor... executors) {
    return runner(policy, ExecutionOptions.EXACT, executors);
  }

  private static VerifyPolicy all() {
    return new VerifyPolicy(VerifyPolicy.Mode.ALL, VerifyPolicy.DEFAULT_EVERY);
  }

  /** Runs one launch of {@code t} as kernel {@code k} serving one loop of site "com.acme.Foo.bar:42". */
  private boolean run(KernelRunner runner, String kernel, Launch launch) {
    int id = sites.register(new LoopSite("com.acme.Foo", "bar", "([D[D)V", 42, "map", launch.template(),
        new LoopShape(Cond.LT, 1), null));
    return runner.run(launch, kernel, List.of(new PendingLoop(id, sites.get(id), launch, null)), null);
  }

  /** {@code out[i] = in[i] * p0} over doubles. */
  private static LoopTemplate scale() {
    Node v = Binary.of(BinaryOp.MUL, new Load(0, Type.DOUBLE, I), new Param(0, Type.DOUBLE));
    return new LoopTemplate(List.of(Type.DOUBLE, Type.DOUBLE), List.of(Type.DOUBLE), List.of(),
        List.of(new Store(1, Type.DOUBLE, I, v, Const.TRUE)), List.of());
  }

  private static Launch scale(double[] in, double[] out, double p, int from, int to) {
    return new Launch(scale(), new Object[] {in, out}, new long[] {Double.doubleToRawLongBits(p)}, new long[0],
        from, 1, to - from);
  }

  /** {@code out[i] = in[i] * p0 + 1.0}: another kernel than {@link #scale()}, with the same arrays. */
  private static Launch scalePlusOne(double[] in, double[] out, double p) {
    Node v = Binary.of(BinaryOp.ADD, Binary.of(BinaryOp.MUL, new Load(0, Type.DOUBLE, I), new Param(0, Type.DOUBLE)),
        Const.ofDouble(1.0));
    LoopTemplate t = new LoopTemplate(List.of(Type.DOUBLE, Type.DOUBLE), List.of(Type.DOUBLE), List.of(),
        List.of(new Store(1, Type.DOUBLE, I, v, Const.TRUE)), List.of());
    return new Launch(t, new Object[] {in, out}, new long[] {Double.doubleToRawLongBits(p)}, new long[0], 0, 1,
        in.length);
  }

  /** {@code s += a[i]} over {@code type} (int or double), splittable. */
  private static LoopTemplate sum(Type type) {
    Node e = new Load(0, type, I);
    return new LoopTemplate(List.of(type), List.of(), List.of(type), List.of(),
        List.of(new Reduction(0, type, Binary.of(BinaryOp.ADD, new Acc(0, type), e), ReduceOp.ADD, e)));
  }

  private static double[] ramp(int n) {
    double[] a = new double[n];
    for (int k = 0; k < n; k++) a[k] = k * 0.5 + 0.1;
    return a;
  }

  private static double[] scaled(double[] in, double p) {
    double[] out = new double[in.length];
    for (int k = 0; k < in.length; k++) out[k] = in[k] * p;
    return out;
  }

  private String report() {
    return profiler.reportJson();
  }

  @Test
  void underAllEveryLaunchIsCheckedAndRightResultsPass() {
    TamperingExecutor good = TamperingExecutor.faithful("good");
    KernelRunner runner = runner(all(), good, new ReferenceExecutor());
    double[] in = ramp(64);
    for (int round = 0; round < 5; round++) {
      double[] out = new double[64];
      assertTrue(run(runner, "k", scale(in, out, 2.0 + round, 0, 64)));
      assertArrayEquals(scaled(in, 2.0 + round), out);
    }
    assertTrue(report().endsWith("\"verify\":{\"mode\":\"all\",\"checked\":5,\"mismatches\":0,"
        + "\"kernels\":[{\"id\":\"k\",\"executor\":\"good\",\"checked\":5,\"mismatches\":0,\"worst\":0}]}}"), report());
    assertEquals(List.of(), lines);
  }

  @Test
  void aMismatchIsCaughtWithItsFirstDifferenceAndTheProgramGetsTheReferenceResult() {
    // Spoils elements 5 and 9 of every launch's output.
    TamperingExecutor wrong = new TamperingExecutor("wrong", (launch, n) -> {
      double[] out = (double[]) launch.arrays()[1];
      out[5] += 1;
      out[9] = Double.NaN;
    });
    TamperingExecutor next = TamperingExecutor.faithful("next");
    KernelRunner runner = runner(all(), wrong, next, new ReferenceExecutor());
    double[] in = ramp(16);
    double[] out = new double[16];
    assertTrue(run(runner, "k", scale(in, out, 2.5, 0, 16)));
    assertArrayEquals(scaled(in, 2.5), out, "the reference's result, not the executor's");
    assertEquals(1, lines.size(), lines.toString());
    String line = lines.get(0);
    double expected = in[5] * 2.5;
    assertTrue(line.startsWith("looplift: verify: kernel k on wrong differs from the reference executor"
        + " (loops com.acme.Foo.bar:42#0): first at array 1[5], expected " + expected + " (0x"
        + Long.toHexString(Double.doubleToRawLongBits(expected)) + "), got " + (expected + 1) + " (0x"
        + Long.toHexString(Double.doubleToRawLongBits(expected + 1)) + ")"), line);
    assertTrue(line.endsWith("the kernel no longer runs on wrong"), line);

    // The kernel runs on the next executor from now on, and is checked there too; other kernels stay.
    double[] again = new double[16];
    assertTrue(run(runner, "k", scale(in, again, 3.0, 0, 16)));
    assertArrayEquals(scaled(in, 3.0), again);
    assertEquals(1, wrong.launches());
    assertEquals(1, next.launches());
    assertTrue(run(runner, "other", scalePlusOne(in, new double[16], 3.0)));
    assertEquals(2, wrong.launches());
    assertTrue(report().contains("\"verify\":{\"mode\":\"all\",\"checked\":3,\"mismatches\":2,\"kernels\":["
        + "{\"id\":\"k\",\"executor\":\"wrong\",\"checked\":1,\"mismatches\":1,\"worst\":"), report());
    assertTrue(report().contains("{\"id\":\"k\",\"executor\":\"next\",\"checked\":1,\"mismatches\":0,\"worst\":0}"),
        report());
    assertTrue(report().contains("{\"id\":\"other\",\"executor\":\"wrong\",\"checked\":1,\"mismatches\":1,"), report());
  }

  @Test
  void sampleChecksEachKernelsFirstLaunchThenOneInEvery() {
    // Right on launches 0 and 1, wrong from launch 2 on: 2 is not sampled and stands, 3 is caught.
    TamperingExecutor drifting = new TamperingExecutor("drifting", (launch, n) -> {
      if (n >= 2) ((double[]) launch.arrays()[1])[0] = -1;
    });
    TamperingExecutor next = TamperingExecutor.faithful("next");
    KernelRunner runner = runner(new VerifyPolicy(VerifyPolicy.Mode.SAMPLE, 3), drifting, next);
    double[] in = ramp(8);
    double[][] outs = new double[8][8];
    for (int round = 0; round < 8; round++) assertTrue(run(runner, "k", scale(in, outs[round], 2.0, 0, 8)));
    assertEquals(-1, outs[2][0], "an unchecked launch keeps the executor's result");
    for (int round : new int[] {0, 1, 3, 4, 5, 6, 7}) assertArrayEquals(scaled(in, 2.0), outs[round], "launch " + round);
    assertEquals(4, drifting.launches());
    assertEquals(4, next.launches());
    // drifting: launches 0 and 3 checked; next: its first launch (4) and 4 + 3 = 7.
    assertTrue(report().contains("\"verify\":{\"mode\":\"sample\",\"every\":3,\"checked\":4,\"mismatches\":1,\"kernels\":["
        + "{\"id\":\"k\",\"executor\":\"drifting\",\"checked\":2,\"mismatches\":1,\"worst\":"), report());
    assertTrue(report().contains("{\"id\":\"k\",\"executor\":\"next\",\"checked\":2,\"mismatches\":0,\"worst\":0}"),
        report());
  }

  @Test
  void anInPlaceLaunchIsCheckedFromCopiesTakenBeforeItRan() {
    // a[i] = a[i] * 2 on a single array: both slots are the same object.
    TamperingExecutor wrong = new TamperingExecutor("wrong", (launch, n) -> ((double[]) launch.arrays()[1])[3] = 0);
    KernelRunner runner = runner(all(), wrong, new ReferenceExecutor());
    double[] a = ramp(10);
    double[] expected = scaled(a, 2.0);
    assertTrue(run(runner, "k", scale(a, a, 2.0, 0, 10)));
    assertArrayEquals(expected, a, "doubled once, from the values before the launch");
    assertTrue(lines.get(0).contains("first at array 1[3], expected 3.2 "), lines.toString());
  }

  @Test
  void onlyTheElementsTheLaunchCanWriteAreComparedAndRestored() {
    // While the launch runs, "another thread" writes an element outside its range: a correct program may.
    TamperingExecutor wrong = new TamperingExecutor("wrong", (launch, n) -> {
      double[] out = (double[]) launch.arrays()[1];
      out[40] = 7;
      out[12] = -1;
    });
    KernelRunner runner = runner(all(), wrong, new ReferenceExecutor());
    double[] in = ramp(50);
    double[] out = new double[50];
    assertTrue(run(runner, "k", scale(in, out, 2.0, 10, 20)));
    assertTrue(lines.get(0).contains("first at array 1[12]"), lines.toString());
    double[] expected = new double[50];
    for (int k = 10; k < 20; k++) expected[k] = in[k] * 2.0;
    expected[40] = 7;
    assertArrayEquals(expected, out, "the launch's range restored, the other write kept");
  }

  @Test
  void aWrongReductionValueIsCaughtAndReplaced() {
    TamperingExecutor wrong = new TamperingExecutor("wrong", (launch, n) -> launch.accumulators()[0] += 1);
    KernelRunner runner = runner(all(), wrong, new ReferenceExecutor());
    int[] v = new int[100];
    for (int k = 0; k < v.length; k++) v[k] = k;
    long[] acc = {10};
    assertTrue(run(runner, "sum", new Launch(sum(Type.INT), new Object[] {v}, new long[0], acc, 0, 1, 100)));
    assertEquals(10 + 4950, acc[0]);
    assertTrue(lines.get(0).contains("first at reduction 0, expected 4960, got 4961"), lines.toString());
    assertTrue(report().contains("\"executor\":\"wrong\",\"checked\":1,\"mismatches\":1,\"worst\":1}"), report());
  }

  /** A double sum in reverse order, as a parallel tree would round differently; {@code extra} added on top. */
  private static TamperingExecutor reversedSum(double extra) {
    return new TamperingExecutor("tree", (launch, n) -> {
      double[] a = (double[]) launch.arrays()[0];
      double s = 0;
      for (int k = launch.trips() - 1; k >= 0; k--) s += a[launch.start() + k];
      launch.accumulators()[0] = Double.doubleToRawLongBits(s + extra);
    });
  }

  private static double[] rounding() {
    double[] a = new double[1000];
    for (int k = 0; k < a.length; k++) a[k] = 1.0 / (k + 1) * (k % 2 == 0 ? 1 : -1e3);
    return a;
  }

  @Test
  void aReassociatedSumPassesWithinItsBoundAndFailsBeyond() {
    ExecutionOptions reassociate = new ExecutionOptions(true, false);
    double[] a = rounding();
    double ordered = 0;
    double magnitude = 0;
    for (double x : a) {
      ordered += x;
      magnitude += Math.abs(x);
    }
    long[] acc = {0};
    assertTrue(run(runner(all(), reassociate, reversedSum(0)), "sum", new Launch(sum(Type.DOUBLE), new Object[] {a},
        new long[0], acc, 0, 1, a.length)));
    double reversed = Double.longBitsToDouble(acc[0]);
    assertTrue(reversed != ordered, "the test needs a sum whose order changes its rounding");
    assertEquals(List.of(), lines, "within 2 g S/(1 - g)");
    assertTrue(report().contains("\"checked\":1,\"mismatches\":0,\"worst\":"), report());

    // Far beyond the bound: 1000 terms, g about 1000 u; the bound is under 1e-9 of S.
    acc[0] = 0;
    assertTrue(run(runner(all(), reassociate, reversedSum(magnitude * 1e-9)), "sum2", new Launch(sum(Type.DOUBLE),
        new Object[] {a}, new long[0], acc, 0, 1, a.length)));
    assertEquals(ordered, Double.longBitsToDouble(acc[0]), "the reference's, ordered sum");
    assertTrue(lines.get(0).contains("first at reduction 0"), lines.toString());
  }

  @Test
  void withoutReassociateASumMustBeBitExact() {
    long[] acc = {0};
    double[] a = rounding();
    assertTrue(run(runner(all(), reversedSum(0)), "sum", new Launch(sum(Type.DOUBLE), new Object[] {a}, new long[0],
        acc, 0, 1, a.length)));
    assertTrue(lines.get(0).contains("first at reduction 0"), lines.toString());
  }

  /** {@code out[i] = Math.exp(in[i])}; the executor is {@code ulps} ulps off at element 1. */
  private boolean exp(ExecutionOptions options, int ulps) {
    Node v = new Call("java/lang/Math", "exp", "(D)D", List.of(new Load(0, Type.DOUBLE, I)));
    LoopTemplate t = new LoopTemplate(List.of(Type.DOUBLE, Type.DOUBLE), List.of(), List.of(),
        List.of(new Store(1, Type.DOUBLE, I, v, Const.TRUE)), List.of());
    TamperingExecutor off = new TamperingExecutor("opencl-like", (launch, n) -> {
      double[] out = (double[]) launch.arrays()[1];
      out[1] = Double.longBitsToDouble(Double.doubleToRawLongBits(out[1]) + ulps);
    });
    double[] out = new double[4];
    run(runner(all(), options, off), "exp", new Launch(t, new Object[] {ramp(4), out}, new long[0], new long[0], 0, 1, 4));
    return lines.isEmpty();
  }

  @Test
  void underPrecisionUlpATranscendentalMayBeAFewUlpOff() {
    assertTrue(exp(new ExecutionOptions(false, true), 17), lines.toString());
    assertTrue(report().contains("\"worst\":17}"), report());
  }

  @Test
  void underPrecisionUlpAGrossErrorIsStillCaught() {
    assertFalse(exp(new ExecutionOptions(false, true), 1 << 30), lines.toString());
  }

  @Test
  void underPrecisionExactOneUlpIsAMismatch() {
    assertFalse(exp(ExecutionOptions.EXACT, 1), lines.toString());
    assertTrue(lines.get(0).contains("first at array 1[1]"), lines.toString());
  }

  @Test
  void aLoopNestIsComparedRowByRow() {
    // for (j = 0; j < in[i].length; j++) out[i][j] = in[i][j] + 1
    Node row = I;
    Node j = new LoopVar(0);
    Node v = Binary.of(BinaryOp.ADD, new Load(0, Type.DOUBLE, j, row, 0), Const.ofDouble(1));
    Loop inner = new Loop(0, Const.ofInt(0), new Length(0, row), Cond.LT, 1, List.of(),
        List.of(new Store(1, Type.DOUBLE, j, v, Const.TRUE, row)), Const.TRUE, true);
    LoopTemplate t = new LoopTemplate(List.of(Type.DOUBLE, Type.DOUBLE), List.of(), List.of(), List.of(inner),
        List.of(), List.of(0, 1), false);
    TamperingExecutor wrong = new TamperingExecutor("wrong", (launch, n) -> ((double[][]) launch.arrays()[1])[2][3] = 0);
    double[][] in = {ramp(5), ramp(6), ramp(7), ramp(8)};
    double[][] out = {new double[5], new double[6], new double[7], new double[8]};
    assertTrue(run(runner(all(), wrong, new ReferenceExecutor()), "nest",
        new Launch(t, new Object[] {in, out}, new long[0], new long[0], 0, 1, 4)));
    for (int r = 0; r < 4; r++) {
      double[] expected = in[r].clone();
      for (int k = 0; k < expected.length; k++) expected[k] += 1;
      assertArrayEquals(expected, out[r], "row " + r);
    }
    assertTrue(lines.get(0).contains("first at array 1[2][3], expected 2.6 "), lines.toString());
  }

  @Test
  void launchesOnTheReferenceExecutorAreNotChecked() {
    KernelRunner runner = runner(all(), new ReferenceExecutor());
    assertTrue(run(runner, "k", scale(ramp(4), new double[4], 2.0, 0, 4)));
    assertTrue(report().endsWith("\"verify\":{\"mode\":\"all\",\"checked\":0,\"mismatches\":0,\"kernels\":[]}}"),
        report());
  }

  @Test
  void offChecksNothing() {
    TamperingExecutor wrong = new TamperingExecutor("wrong", (launch, n) -> ((double[]) launch.arrays()[1])[0] = -1);
    double[] out = new double[4];
    assertTrue(run(runner(VerifyPolicy.OFF, wrong), "k", scale(ramp(4), out, 2.0, 0, 4)));
    assertEquals(-1, out[0]);
    assertTrue(report().endsWith("\"verify\":{\"mode\":\"off\",\"checked\":0,\"mismatches\":0,\"kernels\":[]}}"),
        report());
  }
}
