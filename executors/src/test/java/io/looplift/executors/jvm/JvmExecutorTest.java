package io.looplift.executors.jvm;

import static io.looplift.executors.jvm.Ir.I;
import static io.looplift.executors.jvm.Ir.bin;
import static io.looplift.executors.jvm.Ir.load;
import static io.looplift.executors.jvm.Ir.rel;
import static io.looplift.executors.jvm.Ir.store;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.looplift.executors.ExecutionException;
import io.looplift.executors.ExecutionOptions;
import io.looplift.executors.Launch;
import io.looplift.executors.reference.ReferenceExecutor;
import io.looplift.ir.Acc;
import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Call;
import io.looplift.ir.Compare;
import io.looplift.ir.Cond;
import io.looplift.ir.Const;
import io.looplift.ir.Convert;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Node;
import io.looplift.ir.Param;
import io.looplift.ir.ReduceOp;
import io.looplift.ir.Reduction;
import io.looplift.ir.Select;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import io.looplift.ir.Unary;
import io.looplift.ir.UnaryOp;
import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class JvmExecutorTest {
  private static final ReferenceExecutor REFERENCE = new ReferenceExecutor();
  /** Small chunks, so that launches of a few hundred thousand iterations split as big ones do. */
  private static final long SMALL_CHUNKS = 1 << 15;
  private static final JvmExecutor JVM = new JvmExecutor(4, SMALL_CHUNKS);
  private static final JvmExecutor SEQUENTIAL = new JvmExecutor(1);
  private static final ExecutionOptions REASSOCIATE = new ExecutionOptions(true, false);
  private static final int N = 1000;

  @AfterAll
  static void close() {
    JVM.close();
    SEQUENTIAL.close();
  }

  // ---- maps -------------------------------------------------------------------------------------------

  @ParameterizedTest
  @EnumSource(value = Type.class, names = {"INT", "LONG"})
  void integerOperatorsMatchJava(Type t) throws Exception {
    Node a = load(0, t);
    Node b = load(1, t);
    Node s = load(2, Type.INT);
    Node nonZero = bin(BinaryOp.OR, b, Const.ofBits(t, 1));
    List<Node> values = new ArrayList<>();
    for (BinaryOp op : List.of(BinaryOp.ADD, BinaryOp.SUB, BinaryOp.MUL, BinaryOp.AND, BinaryOp.OR, BinaryOp.XOR,
        BinaryOp.MIN, BinaryOp.MAX, BinaryOp.CMPL, BinaryOp.CMPG)) {
      values.add(bin(op, a, b));
    }
    values.add(bin(BinaryOp.DIV, a, nonZero));
    values.add(bin(BinaryOp.REM, a, nonZero));
    for (BinaryOp op : List.of(BinaryOp.SHL, BinaryOp.SHR, BinaryOp.USHR)) {
      values.add(bin(op, a, s)); // counts are random ints: masking matters
      values.add(bin(op, a, Const.ofInt(t == Type.INT ? 33 : 65)));
    }
    values.add(Unary.of(UnaryOp.NEG, a));
    values.add(Unary.of(UnaryOp.ABS, a));
    for (Type to : Type.values()) {
      if (to != Type.BOOLEAN) values.add(Convert.of(a, to));
    }
    for (Cond c : Cond.values()) values.add(Select.of(Compare.of(c, a, b), Const.ofInt(1), Const.ofInt(0)));
    checkMap(List.of(t, t, Type.INT), values, 11);
  }

  @ParameterizedTest
  @EnumSource(value = Type.class, names = {"FLOAT", "DOUBLE"})
  void floatingOperatorsMatchJava(Type t) throws Exception {
    Node a = load(0, t);
    Node b = load(1, t);
    List<Node> values = new ArrayList<>();
    for (BinaryOp op : List.of(BinaryOp.ADD, BinaryOp.SUB, BinaryOp.MUL, BinaryOp.DIV, BinaryOp.REM, BinaryOp.MIN,
        BinaryOp.MAX, BinaryOp.CMPL, BinaryOp.CMPG)) {
      values.add(bin(op, a, b));
    }
    values.add(Unary.of(UnaryOp.NEG, a));
    values.add(Unary.of(UnaryOp.ABS, a));
    if (t == Type.DOUBLE) values.add(Unary.of(UnaryOp.SQRT, a));
    for (Type to : List.of(Type.INT, Type.LONG, Type.FLOAT, Type.DOUBLE)) values.add(Convert.of(a, to)); // saturating, NaN to 0
    for (Type to : List.of(Type.BYTE, Type.CHAR, Type.SHORT)) values.add(Convert.of(Convert.of(a, Type.INT), to));
    // Selects over NaN-sensitive conditions, in both of javac's compare flavours.
    for (Cond c : Cond.values()) {
      values.add(Select.of(rel(c, a, b), a, b));
      values.add(Select.of(Compare.of(c, bin(BinaryOp.CMPL, a, b), Const.ofInt(0)), Const.ofInt(1), Const.ofInt(0)));
      values.add(Select.of(Compare.of(c, bin(BinaryOp.CMPG, a, b), Const.ofInt(0)), Const.ofInt(1), Const.ofInt(0)));
    }
    values.add(bin(BinaryOp.ADD, bin(BinaryOp.MUL, a, Const.ofBits(t, t == Type.FLOAT
        ? Float.floatToRawIntBits(-0.0f) : Double.doubleToRawLongBits(-0.0))), b));
    checkMap(List.of(t, t), values, 12);
  }

  @Test
  void mathCallsMatchJava() throws Exception {
    Node a = load(0, Type.DOUBLE);
    Node b = load(1, Type.DOUBLE);
    Node f = load(2, Type.FLOAT);
    List<Node> values = List.of(
        call("exp", "(D)D", a), call("log", "(D)D", a), call("pow", "(DD)D", a, b), call("sin", "(D)D", a),
        call("cbrt", "(D)D", a), call("atan2", "(DD)D", a, b), call("fma", "(DDD)D", a, b, a),
        call("round", "(F)I", f), call("round", "(D)J", a), call("signum", "(F)F", f),
        // The same call twice must be computed once and give one value.
        bin(BinaryOp.ADD, call("exp", "(D)D", a), call("exp", "(D)D", a)));
    checkMap(List.of(Type.DOUBLE, Type.DOUBLE, Type.FLOAT), values, 13);
  }

  @Test
  void subIntElementsAndBooleansMatchJava() throws Exception {
    Node bt = load(0, Type.BYTE);
    Node ch = load(1, Type.CHAR);
    Node sh = load(2, Type.SHORT);
    Node z = load(3, Type.BOOLEAN);
    Node in = load(4, Type.INT);
    Node neg = Compare.of(Cond.LT, bt, Const.ofInt(0));
    Node big = Compare.of(Cond.GT, ch, Const.ofInt(30000));
    Node zSet = Compare.of(Cond.NE, z, Const.ofInt(0));
    List<Type> types = new ArrayList<>(List.of(Type.BYTE, Type.CHAR, Type.SHORT, Type.BOOLEAN, Type.INT));
    List<Store> stores = new ArrayList<>();
    addStore(types, stores, Type.BYTE, bin(BinaryOp.ADD, bt, ch));
    addStore(types, stores, Type.CHAR, bin(BinaryOp.MUL, sh, Const.ofInt(3)));
    addStore(types, stores, Type.SHORT, bin(BinaryOp.SUB, ch, bt));
    addStore(types, stores, Type.BOOLEAN, in); // boolean[] keeps value & 1
    addStore(types, stores, Type.BOOLEAN, Select.of(neg, Const.ofInt(1), Const.ofInt(0)));
    addStore(types, stores, Type.INT, bin(BinaryOp.XOR, z, Const.ofInt(1)));
    addStore(types, stores, Type.INT, Select.of(bin(BinaryOp.AND, neg, big), sh, bt));
    addStore(types, stores, Type.INT, Select.of(bin(BinaryOp.OR, neg, Unary.of(UnaryOp.NOT, zSet)), ch, in));
    addStore(types, stores, Type.INT, Select.of(bin(BinaryOp.XOR, zSet, big), Const.ofInt(7), Const.ofInt(-7)));
    addStore(types, stores, Type.BYTE, Convert.of(in, Type.CHAR));
    addStore(types, stores, Type.CHAR, Convert.of(in, Type.BYTE));
    addStore(types, stores, Type.SHORT, Convert.of(Convert.of(in, Type.LONG), Type.SHORT));
    addStore(types, stores, Type.INT, Convert.of(Convert.of(Convert.of(bt, Type.FLOAT), Type.INT), Type.CHAR));
    LoopTemplate t = new LoopTemplate(types, List.of(), List.of(), stores, List.of());
    Random rnd = new Random(14);
    Object[] arrays = randomArrays(rnd, types, N);
    check(t, arrays, new long[0], new long[0], 0, 1, N, ExecutionOptions.EXACT);
  }

  @Test
  void conditionalStoresAffineIndicesAndStepsMatchJava() throws Exception {
    Node x3 = load(0, Type.DOUBLE, bin(BinaryOp.ADD, I, Const.ofInt(3)));
    Node twoI1 = bin(BinaryOp.ADD, bin(BinaryOp.MUL, I, Const.ofInt(2)), Const.ofInt(1));
    Node p0 = new Param(0, Type.DOUBLE);
    Node p1 = new Param(1, Type.DOUBLE);
    Node p2 = new Param(2, Type.INT);
    Node value = bin(BinaryOp.ADD, bin(BinaryOp.MUL, x3, p0), call("exp", "(D)D", p1));
    Node positive = rel(Cond.GT, load(0, Type.DOUBLE), Const.ofDouble(0));
    List<Store> stores = List.of(
        new Store(1, Type.DOUBLE, twoI1, value, Const.TRUE),
        new Store(2, Type.INT, I, bin(BinaryOp.MUL, I, p2), positive),
        // A later store to the same element wins, as in Java.
        new Store(2, Type.INT, I, Const.ofInt(-1), rel(Cond.LT, x3, Const.ofDouble(-1))));
    LoopTemplate t = new LoopTemplate(List.of(Type.DOUBLE, Type.DOUBLE, Type.INT), List.of(Type.DOUBLE, Type.DOUBLE, Type.INT),
        List.of(), stores, List.of());
    Random rnd = new Random(15);
    Object[] arrays = {Ir.randomArray(rnd, Type.DOUBLE, N + 3), Ir.randomArray(rnd, Type.DOUBLE, 2 * N + 1),
        Ir.randomArray(rnd, Type.INT, N)};
    long[] params = {Double.doubleToRawLongBits(1.5), Double.doubleToRawLongBits(0.25), 7};
    int[][] launches = {{0, 1, N}, {5, 1, 17}, {0, 2, N / 2}, {1, 2, N / 2 - 1}, {N - 1, -1, N}, {N - 1, -3, N / 3},
        {3, 100, 9}, {0, 1, 0}};
    for (int[] l : launches) check(t, arrays, params, new long[0], l[0], l[1], l[2], ExecutionOptions.EXACT);
  }

  @Test
  void unitStrideNearIntegerMaxTakesTheExactExitTest() throws Exception {
    // i runs up to Integer.MAX_VALUE, so start + trips overflows: must still run exactly `trips` iterations.
    Node idx = bin(BinaryOp.SUB, I, new Param(0, Type.INT));
    LoopTemplate t = new LoopTemplate(List.of(Type.INT), List.of(Type.INT), List.of(),
        List.of(new Store(0, Type.INT, idx, I, Const.TRUE)), List.of());
    int start = Integer.MAX_VALUE - 9;
    check(t, new Object[] {new int[10]}, new long[] {start}, new long[0], start, 1, 10, ExecutionOptions.EXACT);
  }

  // ---- reductions -------------------------------------------------------------------------------------

  @ParameterizedTest
  @EnumSource(value = Type.class, names = {"INT", "LONG", "FLOAT", "DOUBLE"})
  void everyReductionMatchesJavaSequentially(Type t) throws Exception {
    for (ReduceOp op : ops(t)) {
      LoopTemplate tpl = reductionTemplate(t, op);
      Random rnd = new Random(op.ordinal() * 31L + t.ordinal());
      Object[] arrays = {Ir.randomArray(rnd, t, N), Ir.randomArray(rnd, Type.INT, N)};
      long[] init = {Ir.randomBits(rnd, t), op.identity(t)};
      check(tpl, arrays, new long[0], init, 0, 1, N, REASSOCIATE);
      check(tpl, arrays, new long[0], init, N - 1, -2, N / 2, ExecutionOptions.EXACT);
    }
  }

  @ParameterizedTest
  @EnumSource(value = Type.class, names = {"INT", "LONG", "FLOAT", "DOUBLE"})
  void parallelReductionsEqualSequentialBitForBit(Type t) throws Exception {
    int n = 300_000;
    for (ReduceOp op : ops(t)) {
      if (op.reassociates(t)) continue;
      LoopTemplate tpl = reductionTemplate(t, op);
      assertTrue(JVM.chunks(tpl, n, ExecutionOptions.EXACT) > 1, "splits");
      Random rnd = new Random(op.ordinal() * 17L + t.ordinal());
      Object[] arrays = {Ir.randomArray(rnd, t, n), Ir.randomArray(rnd, Type.INT, n)};
      long[] init = {Ir.randomBits(rnd, t), op.identity(t)};
      long[] seq = run(SEQUENTIAL, tpl, Ir.copy(arrays), init, 0, 1, n, ExecutionOptions.EXACT);
      long[] par = run(JVM, tpl, Ir.copy(arrays), init, 0, 1, n, ExecutionOptions.EXACT);
      assertAccsEqual(tpl, seq, par, op + " over " + t);
    }
  }

  @Test
  void parallelIntegerSumMatchesReference() throws Exception {
    int n = 100_000;
    LoopTemplate tpl = reductionTemplate(Type.INT, ReduceOp.ADD);
    assertTrue(JVM.chunks(tpl, n, ExecutionOptions.EXACT) > 1, "splits");
    Random rnd = new Random(3);
    Object[] arrays = {Ir.randomArray(rnd, Type.INT, n), Ir.randomArray(rnd, Type.INT, n)};
    check(tpl, arrays, new long[0], new long[] {5, 0}, 0, 1, n, ExecutionOptions.EXACT);
    check(tpl, arrays, new long[0], new long[] {5, 0}, n - 1, -1, n, ExecutionOptions.EXACT);
  }

  @Test
  void orderedFloatingSumStaysSequentialAndExact() throws Exception {
    int n = 200_000;
    Random rnd = new Random(4);
    double[] x = new double[n];
    for (int k = 0; k < n; k++) x[k] = rnd.nextGaussian() * Math.pow(10, rnd.nextInt(12) - 6);
    double java = 0.1;
    for (double v : x) java += v;
    LoopTemplate tpl = new LoopTemplate(List.of(Type.DOUBLE), List.of(), List.of(Type.DOUBLE), List.of(),
        List.of(Ir.reduction(0, Type.DOUBLE, ReduceOp.ADD, load(0, Type.DOUBLE))));
    long[] acc = run(JVM, tpl, new Object[] {x}, new long[] {Double.doubleToRawLongBits(0.1)}, 0, 1, n, ExecutionOptions.EXACT);
    assertEquals(Double.doubleToRawLongBits(java), acc[0]);
  }

  @ParameterizedTest
  @EnumSource(value = Type.class, names = {"FLOAT", "DOUBLE"})
  void reassociatedSumsAreAccurateAndRepeatable(Type t) throws Exception {
    int n = 1 << 20;
    Random rnd = new Random(5 + t.ordinal());
    Object x = Ir.newArray(t, n);
    BigDecimal exact = BigDecimal.ZERO;
    BigDecimal abs = BigDecimal.ZERO;
    for (int k = 0; k < n; k++) {
      double v = rnd.nextGaussian() * Math.pow(2, rnd.nextInt(20) - 10);
      if (t == Type.FLOAT) {
        ((float[]) x)[k] = (float) v;
        v = (float) v;
      } else {
        ((double[]) x)[k] = v;
      }
      exact = exact.add(new BigDecimal(v));
      abs = abs.add(new BigDecimal(Math.abs(v)));
    }
    LoopTemplate tpl = new LoopTemplate(List.of(t), List.of(), List.of(t), List.of(),
        List.of(Ir.reduction(0, t, ReduceOp.ADD, load(0, t))));
    long[] first = run(JVM, tpl, new Object[] {x}, new long[] {0}, 0, 1, n, REASSOCIATE);
    for (int r = 0; r < 3; r++) {
      assertArrayEquals(first, run(JVM, tpl, new Object[] {x}, new long[] {0}, 0, 1, n, REASSOCIATE), "repeat " + r);
    }
    double got = t == Type.FLOAT ? Float.intBitsToFloat((int) first[0]) : Double.longBitsToDouble(first[0]);
    // Recursive summation error: (longest chain of additions) * unit roundoff * sum |x|. Chains here are a
    // chunk's quarter plus the few combining steps, far shorter than n.
    double u = t == Type.FLOAT ? 0x1p-24 : 0x1p-53;
    int chunks = JVM.chunks(tpl, n, REASSOCIATE);
    double chain = (double) n / chunks / 4 + chunks + 8;
    double bound = chain * u * abs.doubleValue();
    double err = Math.abs(new BigDecimal(got).subtract(exact).doubleValue());
    assertTrue(err <= bound, "error " + err + " above bound " + bound);
  }

  @ParameterizedTest
  @EnumSource(value = Type.class, names = {"FLOAT", "DOUBLE"})
  void reassociatedProductsAreAccurateAndRepeatable(Type t) throws Exception {
    int n = 1 << 18;
    Random rnd = new Random(6 + t.ordinal());
    Object x = Ir.newArray(t, n);
    MathContext mc = new MathContext(60);
    BigDecimal exact = BigDecimal.ONE;
    for (int k = 0; k < n; k++) {
      double v = 1 + rnd.nextGaussian() * 1e-3;
      if (t == Type.FLOAT) {
        ((float[]) x)[k] = (float) v;
        v = (float) v;
      } else {
        ((double[]) x)[k] = v;
      }
      exact = exact.multiply(new BigDecimal(v), mc);
    }
    LoopTemplate tpl = new LoopTemplate(List.of(t), List.of(), List.of(t), List.of(),
        List.of(Ir.reduction(0, t, ReduceOp.MUL, load(0, t))));
    long one = ReduceOp.MUL.identity(t);
    long[] first = run(JVM, tpl, new Object[] {x}, new long[] {one}, 0, 1, n, REASSOCIATE);
    assertArrayEquals(first, run(JVM, tpl, new Object[] {x}, new long[] {one}, 0, 1, n, REASSOCIATE));
    double got = t == Type.FLOAT ? Float.intBitsToFloat((int) first[0]) : Double.longBitsToDouble(first[0]);
    double u = t == Type.FLOAT ? 0x1p-24 : 0x1p-53;
    int chunks = JVM.chunks(tpl, n, REASSOCIATE);
    double chain = (double) n / chunks / 4 + chunks + 8;
    double rel = Math.abs(new BigDecimal(got).subtract(exact).divide(exact, mc).doubleValue());
    assertTrue(rel <= chain * u, "relative error " + rel);
  }

  @Test
  void severalAccumulatorsRunInParallelExactly() throws Exception {
    int n = 400_000;
    Node x = load(0, Type.DOUBLE);
    Node k = load(1, Type.INT);
    Node pos = rel(Cond.GT, x, Const.ofDouble(0));
    Node count = Select.of(pos, Const.ofInt(1), Const.ofInt(0));
    Acc c = new Acc(2, Type.INT);
    List<Reduction> rs = List.of(
        Ir.reduction(0, Type.DOUBLE, ReduceOp.MIN, x),
        Ir.reduction(1, Type.DOUBLE, ReduceOp.SELECT_GE, x),
        // if (x > 0) count++: the update is conditional, the element carries the identity.
        new Reduction(2, Type.INT, Select.of(pos, bin(BinaryOp.ADD, c, Const.ofInt(1)), c), ReduceOp.ADD, count),
        Ir.reduction(3, Type.LONG, ReduceOp.XOR, Convert.of(k, Type.LONG)),
        Ir.reduction(4, Type.INT, ReduceOp.SELECT_LT, k));
    LoopTemplate tpl = new LoopTemplate(List.of(Type.DOUBLE, Type.INT), List.of(),
        List.of(Type.DOUBLE, Type.DOUBLE, Type.INT, Type.LONG, Type.INT), List.of(), rs);
    Random rnd = new Random(7);
    Object[] arrays = {Ir.randomArray(rnd, Type.DOUBLE, n), Ir.randomArray(rnd, Type.INT, n)};
    long[] init = {ReduceOp.MIN.identity(Type.DOUBLE), ReduceOp.SELECT_GE.identity(Type.DOUBLE), 0, 0, Integer.MAX_VALUE};
    long[] seq = run(SEQUENTIAL, tpl, arrays, init, 0, 1, n, ExecutionOptions.EXACT);
    long[] par = run(JVM, tpl, arrays, init, 0, 1, n, ExecutionOptions.EXACT);
    assertAccsEqual(tpl, seq, par, "several accumulators");
    check(tpl, arrays, new long[0], init, 0, 1, 5000, ExecutionOptions.EXACT);
  }

  @Test
  void accumulatorsUpdateSimultaneously() throws Exception {
    // (a, b) = (b, a + x[i]): not splittable, each update reads the other accumulator's old value.
    Acc a = new Acc(0, Type.LONG);
    Acc b = new Acc(1, Type.LONG);
    Node x = Convert.of(load(0, Type.INT), Type.LONG);
    LoopTemplate tpl = new LoopTemplate(List.of(Type.INT), List.of(), List.of(Type.LONG, Type.LONG), List.of(),
        List.of(new Reduction(0, Type.LONG, b, null, null), new Reduction(1, Type.LONG, bin(BinaryOp.ADD, a, x), null, null)));
    Random rnd = new Random(8);
    Object[] arrays = {Ir.randomArray(rnd, Type.INT, N)};
    check(tpl, arrays, new long[0], new long[] {1, 2}, 0, 1, N, REASSOCIATE);
  }

  @Test
  void storesReadingAccumulatorsRunInOrder() throws Exception {
    // Prefix sum: out[i] = s += x[i]. Not parallel, whatever the size.
    int n = 200_000;
    Acc s = new Acc(0, Type.INT);
    Node sum = bin(BinaryOp.ADD, s, load(0, Type.INT));
    LoopTemplate tpl = new LoopTemplate(List.of(Type.INT, Type.INT), List.of(), List.of(Type.INT),
        List.of(store(1, Type.INT, sum)), List.of(new Reduction(0, Type.INT, sum, ReduceOp.ADD, load(0, Type.INT))));
    int[] x = (int[]) Ir.randomArray(new Random(9), Type.INT, n);
    int[] out = new int[n];
    long[] acc = run(JVM, tpl, new Object[] {x, out}, new long[] {0}, 0, 1, n, REASSOCIATE);
    int java = 0;
    for (int k = 0; k < n; k++) {
      java += x[k];
      assertEquals(java, out[k]);
    }
    assertEquals(java, (int) acc[0]);
  }

  // ---- executor behaviour -----------------------------------------------------------------------------

  @Test
  void manyConcurrentCallersNeverDeadlockAndAllGetTheirResult() {
    JvmExecutor two = new JvmExecutor(2, SMALL_CHUNKS);
    try {
      int n = 150_000;
      LoopTemplate tpl = new LoopTemplate(List.of(Type.INT), List.of(), List.of(Type.LONG), List.of(),
          List.of(Ir.reduction(0, Type.LONG, ReduceOp.ADD, Convert.of(load(0, Type.INT), Type.LONG))));
      int[] x = new int[n];
      for (int k = 0; k < n; k++) x[k] = k;
      long expected = (long) n * (n - 1) / 2;
      assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
        ExecutorService callers = Executors.newFixedThreadPool(12);
        try {
          List<Future<?>> fs = new ArrayList<>();
          for (int c = 0; c < 12; c++) {
            fs.add(callers.submit(() -> {
              for (int r = 0; r < 10; r++) {
                long[] acc = run(two, tpl, new Object[] {x}, new long[] {r}, 0, 1, n, ExecutionOptions.EXACT);
                assertEquals(expected + r, acc[0]);
              }
              return null;
            }));
          }
          for (Future<?> f : fs) f.get();
        } finally {
          callers.shutdownNow();
        }
      });
    } finally {
      two.close();
    }
  }

  @Test
  void launchesSplitByWorkNotByLength() {
    JvmExecutor two = new JvmExecutor(2);
    try {
      Node cheap = Binary.of(BinaryOp.ADD, load(0, Type.DOUBLE), Const.ofDouble(1));
      Node costly = call("exp", "(D)D", call("sin", "(D)D", load(0, Type.DOUBLE)));
      List<Type> arrays = List.of(Type.DOUBLE, Type.DOUBLE);
      LoopTemplate add = new LoopTemplate(arrays, List.of(), List.of(), List.of(store(1, Type.DOUBLE, cheap)), List.of());
      LoopTemplate exp = new LoopTemplate(arrays, List.of(), List.of(), List.of(store(1, Type.DOUBLE, costly)), List.of());
      assertEquals(1, two.chunks(add, 1 << 17, ExecutionOptions.EXACT), "a cheap short loop stays on the caller");
      assertTrue(two.chunks(exp, 1 << 17, ExecutionOptions.EXACT) > 1, "a costly loop of the same length splits");
      assertTrue(two.chunks(add, 1 << 22, ExecutionOptions.EXACT) > 1, "a cheap long loop splits");
    } finally {
      two.close();
    }
  }

  @Test
  void poolThreadsAreNamedDaemons() throws Exception {
    JvmExecutor two = new JvmExecutor(2, SMALL_CHUNKS);
    try {
      int n = 1 << 20;
      Node body = call("sin", "(D)D", load(0, Type.DOUBLE));
      LoopTemplate tpl = new LoopTemplate(List.of(Type.DOUBLE, Type.DOUBLE), List.of(), List.of(), List.of(store(1, Type.DOUBLE, body)), List.of());
      double[] x = new double[n];
      double[] y = new double[n];
      for (int k = 0; k < n; k++) x[k] = k;
      two.execute(new Launch(tpl, new Object[] {x, y}, new long[0], new long[0], 0, 1, n), ExecutionOptions.EXACT);
      for (int k = 0; k < n; k += 997) assertEquals(Math.sin(k), y[k]);
      boolean found = Thread.getAllStackTraces().keySet().stream()
          .anyMatch(th -> th.getName().startsWith("looplift-jvm-") && th.isDaemon());
      assertTrue(found);
    } finally {
      two.close();
    }
  }

  @Test
  void unbuildableKernelFailsBeforeWriting() {
    Node bad = new Call("java/lang/Math", "noSuchMethod", "(D)D", List.of(load(0, Type.DOUBLE)));
    LoopTemplate tpl = new LoopTemplate(List.of(Type.DOUBLE, Type.DOUBLE), List.of(), List.of(), List.of(store(1, Type.DOUBLE, bad)), List.of());
    double[] out = {1, 2, 3};
    assertThrows(ExecutionException.class, () -> JVM.execute(
        new Launch(tpl, new Object[] {new double[3], out}, new long[0], new long[0], 0, 1, 3), ExecutionOptions.EXACT));
    assertArrayEquals(new double[] {1, 2, 3}, out);
  }

  @Test
  void closedExecutorRefusesLaunches() {
    JvmExecutor e = new JvmExecutor(3);
    e.close();
    LoopTemplate tpl = new LoopTemplate(List.of(Type.INT), List.of(), List.of(), List.of(store(0, Type.INT, I)), List.of());
    assertThrows(ExecutionException.class,
        () -> e.execute(new Launch(tpl, new Object[] {new int[1]}, new long[0], new long[0], 0, 1, 1), ExecutionOptions.EXACT));
    assertEquals("jvm", e.name());
  }

  @Test
  void kernelsAreCachedPerTemplateAndSplitFlag() throws Exception {
    LoopTemplate tpl = reductionTemplate(Type.INT, ReduceOp.ADD);
    LoopTemplate same = reductionTemplate(Type.INT, ReduceOp.ADD);
    assertTrue(JVM.kernel(tpl, false) == JVM.kernel(same, false));
    assertTrue(JVM.kernel(tpl, false) != JVM.kernel(tpl, true));
  }

  // ---- helpers ----------------------------------------------------------------------------------------

  private static List<ReduceOp> ops(Type t) {
    List<ReduceOp> ops = new ArrayList<>(List.of(ReduceOp.values()));
    if (t.isFloating()) ops.removeAll(List.of(ReduceOp.AND, ReduceOp.OR, ReduceOp.XOR));
    return ops;
  }

  /** Accumulator 0: {@code acc op x[i]}; accumulator 1: the same op under {@code if (k[i] > 0)}. */
  private static LoopTemplate reductionTemplate(Type t, ReduceOp op) {
    Node x = load(0, t);
    Node cond = Compare.of(Cond.GT, load(1, Type.INT), Const.ofInt(0));
    Reduction plain = Ir.reduction(0, t, op, x);
    Reduction guarded = Ir.reduction(1, t, op, x);
    Acc a1 = new Acc(1, t);
    Reduction conditional = new Reduction(1, t, Select.of(cond, guarded.update(), a1), op,
        Select.of(cond, x, Const.ofBits(t, op.identity(t))));
    return new LoopTemplate(List.of(t, Type.INT), List.of(), List.of(t, t), List.of(), List.of(plain, conditional));
  }

  private static Node call(String name, String desc, Node... args) {
    return new Call("java/lang/Math", name, desc, List.of(args));
  }

  private static void addStore(List<Type> types, List<Store> stores, Type elementType, Node value) {
    stores.add(new Store(types.size(), elementType, I, value, Const.TRUE));
    types.add(elementType);
  }

  /** Maps {@code inputs} to one output array per value (of the value's type), then checks against the reference. */
  private void checkMap(List<Type> inputs, List<Node> values, long seed) throws Exception {
    List<Type> types = new ArrayList<>(inputs);
    List<Store> stores = new ArrayList<>();
    for (Node v : values) addStore(types, stores, v.type(), v);
    LoopTemplate t = new LoopTemplate(types, List.of(), List.of(), stores, List.of());
    Random rnd = new Random(seed);
    Object[] arrays = randomArrays(rnd, types, N);
    check(t, arrays, new long[0], new long[0], 0, 1, N, ExecutionOptions.EXACT);
    check(t, arrays, new long[0], new long[0], N - 1, -1, N, ExecutionOptions.EXACT);
    check(t, arrays, new long[0], new long[0], 1, 3, N / 3, ExecutionOptions.EXACT);
  }

  private static Object[] randomArrays(Random rnd, List<Type> types, int n) {
    Object[] arrays = new Object[types.size()];
    for (int k = 0; k < arrays.length; k++) arrays[k] = Ir.randomArray(rnd, types.get(k), n);
    return arrays;
  }

  private static long[] run(JvmExecutor e, LoopTemplate t, Object[] arrays, long[] init, int start, int step, int trips,
      ExecutionOptions options) throws ExecutionException {
    long[] accs = init.clone();
    e.execute(new Launch(t, arrays, new long[0], accs, start, step, trips), options);
    return accs;
  }

  /** Runs the launch on copies with the reference and the jvm executor and requires identical results. */
  private static void check(LoopTemplate t, Object[] arrays, long[] params, long[] accs, int start, int step, int trips,
      ExecutionOptions options) throws ExecutionException {
    Object[] want = Ir.copy(arrays);
    Object[] got = Ir.copy(arrays);
    long[] wantAccs = accs.clone();
    long[] gotAccs = accs.clone();
    REFERENCE.execute(new Launch(t, want, params, wantAccs, start, step, trips), options);
    JVM.execute(new Launch(t, got, params, gotAccs, start, step, trips), options);
    String where = "start " + start + " step " + step + " trips " + trips;
    for (int a = 0; a < want.length; a++) {
      int n = Array.getLength(want[a]);
      for (int k = 0; k < n; k++) {
        Object w = Array.get(want[a], k);
        Object g = Array.get(got[a], k);
        if (!w.equals(g)) fail("array " + a + "[" + k + "]: want " + w + ", got " + g + " (" + where + ")");
      }
    }
    assertAccsEqual(t, wantAccs, gotAccs, where);
  }

  /** Accumulators equal as Java values of their type (NaNs compare equal, as Float.equals does). */
  private static void assertAccsEqual(LoopTemplate t, long[] want, long[] got, String where) {
    for (int j = 0; j < want.length; j++) {
      Type type = t.accumulators().get(j);
      long w = canonical(type, want[j]);
      long g = canonical(type, got[j]);
      if (w != g) fail("accumulator " + j + " of " + type + ": want " + want[j] + ", got " + got[j] + " (" + where + ")");
    }
  }

  private static long canonical(Type t, long bits) {
    return switch (t) {
      case FLOAT -> Float.floatToIntBits(Float.intBitsToFloat((int) bits));
      case DOUBLE -> Double.doubleToLongBits(Double.longBitsToDouble(bits));
      default -> bits;
    };
  }
}
