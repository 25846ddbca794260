package io.looplift.executors.opencl;

import static io.looplift.executors.opencl.OpenClTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import io.looplift.executors.ExecutionException;
import io.looplift.executors.ExecutionOptions;
import io.looplift.executors.Launch;
import io.looplift.ir.Acc;
import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Call;
import io.looplift.ir.Compare;
import io.looplift.ir.Cond;
import io.looplift.ir.Const;
import io.looplift.ir.Convert;
import io.looplift.ir.Index;
import io.looplift.ir.Load;
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
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Generated kernels on a real OpenCL device against the reference executor (Java's semantics). Subclasses
 * say how the executor reaches the device: in this JVM, or through the OpenCL host process as in the agent.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class OpenClExecutorCases {
  private static final int N = 1500;
  private OpenClExecutor ocl;

  /** An executor on the device under test with programs cached in {@code cacheDir}. */
  abstract OpenClExecutor open(Path cacheDir) throws ExecutionException;

  @BeforeAll
  void openShared(@TempDir Path cacheDir) throws ExecutionException {
    ocl = open(cacheDir);
  }

  @AfterAll
  void close() {
    if (ocl != null) ocl.close();
  }

  private static List<BinaryOp> opsOf(Type t) {
    List<BinaryOp> ops = new ArrayList<>();
    for (BinaryOp op : BinaryOp.values()) {
      if (t.isFloating() && (op == BinaryOp.AND || op == BinaryOp.OR || op == BinaryOp.XOR || op.isShift())) continue;
      ops.add(op);
    }
    return ops;
  }

  @ParameterizedTest
  @EnumSource(value = Type.class, names = {"INT", "LONG", "FLOAT", "DOUBLE"})
  void binaryOperatorsMatchJava(Type t) throws ExecutionException {
    Random rnd = new Random(t.ordinal());
    List<BinaryOp> ops = opsOf(t);
    List<Type> arrays = new ArrayList<>(List.of(t, t, Type.INT));
    List<Store> stores = new ArrayList<>();
    Node x = load(0, t);
    Node y = load(1, t);
    Node count = load(2, Type.INT);
    for (BinaryOp op : ops) {
      Type out = op.isCompare() ? Type.INT : t;
      arrays.add(out);
      stores.add(store(arrays.size() - 1, out, new Binary(op, x, op.isShift() ? count : y)));
    }
    Object[] data = new Object[arrays.size()];
    data[0] = t == Type.INT ? ints(rnd, N) : t == Type.LONG ? longs(rnd, N) : array(t, rnd, N);
    data[1] = t == Type.INT ? divisors(rnd, N) : t == Type.LONG ? longDivisors(rnd, N) : array(t, rnd, N);
    data[2] = ints(rnd, N);
    for (int a = 3; a < data.length; a++) data[a] = array(arrays.get(a), rnd, N);
    assertSameAsReference(ocl, map(arrays, List.of(), stores), data, new long[0], N);
  }

  @ParameterizedTest
  @EnumSource(value = Type.class, names = {"INT", "LONG", "FLOAT", "DOUBLE"})
  void unaryOperatorsMatchJava(Type t) throws ExecutionException {
    Random rnd = new Random(10 + t.ordinal());
    List<Store> stores = new ArrayList<>();
    stores.add(store(1, t, new Unary(UnaryOp.NEG, load(0, t))));
    stores.add(store(2, t, new Unary(UnaryOp.ABS, load(0, t))));
    List<Type> arrays = new ArrayList<>(List.of(t, t, t));
    if (t == Type.DOUBLE) {
      arrays.add(t);
      stores.add(store(3, t, new Unary(UnaryOp.SQRT, load(0, t))));
    }
    Object[] data = new Object[arrays.size()];
    for (int a = 0; a < data.length; a++) data[a] = array(t, rnd, N);
    assertSameAsReference(ocl, map(arrays, List.of(), stores), data, new long[0], N);
  }

  @ParameterizedTest
  @EnumSource(value = Type.class, names = {"INT", "LONG", "FLOAT", "DOUBLE"})
  void conversionsMatchJava(Type from) throws ExecutionException {
    Random rnd = new Random(20 + from.ordinal());
    List<Type> targets = from.isFloating() ? List.of(Type.INT, Type.LONG, Type.FLOAT, Type.DOUBLE)
        : List.of(Type.BYTE, Type.CHAR, Type.SHORT, Type.INT, Type.LONG, Type.FLOAT, Type.DOUBLE);
    List<Type> arrays = new ArrayList<>(List.of(from));
    List<Store> stores = new ArrayList<>();
    for (Type to : targets) {
      Node converted = new Convert(load(0, from), to);
      arrays.add(to.stackType());
      stores.add(store(arrays.size() - 1, to.stackType(), converted)); // the widened value
      if (to.stackType() != to) {
        arrays.add(to);
        stores.add(store(arrays.size() - 1, to, converted)); // the narrowing store
      }
    }
    Object[] data = new Object[arrays.size()];
    for (int a = 0; a < data.length; a++) data[a] = array(arrays.get(a), rnd, N);
    assertSameAsReference(ocl, map(arrays, List.of(), stores), data, new long[0], N);
  }

  @Test
  void subIntElementsLoadWidenedAndStoreTruncated() throws ExecutionException {
    Random rnd = new Random(30);
    List<Type> small = List.of(Type.BOOLEAN, Type.BYTE, Type.CHAR, Type.SHORT);
    List<Type> arrays = new ArrayList<>(small); // inputs 0..3
    List<Store> stores = new ArrayList<>();
    for (int s = 0; s < small.size(); s++) {
      Node widened = load(s, small.get(s));
      arrays.add(Type.INT); // the value as loaded
      stores.add(store(arrays.size() - 1, Type.INT, widened));
      for (Type to : small) { // every sub-int store of a value that overflows it
        arrays.add(to);
        stores.add(store(arrays.size() - 1, to, new Binary(BinaryOp.ADD, new Binary(BinaryOp.MUL, widened, Const.ofInt(1000)), Const.ofInt(-7))));
      }
    }
    arrays.add(Type.INT);
    arrays.add(Type.BOOLEAN);
    stores.add(store(arrays.size() - 1, Type.BOOLEAN, load(arrays.size() - 2, Type.INT))); // boolean stores value & 1
    Object[] data = new Object[arrays.size()];
    for (int a = 0; a < data.length; a++) data[a] = array(arrays.get(a), rnd, N);
    assertSameAsReference(ocl, map(arrays, List.of(), stores), data, new long[0], N);
  }

  @ParameterizedTest
  @EnumSource(value = Type.class, names = {"FLOAT", "DOUBLE"})
  void floatingComparesSelectsAndConditionalStores(Type t) throws ExecutionException {
    Random rnd = new Random(40 + t.ordinal());
    Node x = load(0, t);
    Node y = load(1, t);
    List<Type> arrays = new ArrayList<>(List.of(t, t));
    List<Store> stores = new ArrayList<>();
    for (Cond c : Cond.values()) {
      for (BinaryOp cmp : List.of(BinaryOp.CMPL, BinaryOp.CMPG)) {
        Node cond = new Compare(c, new Binary(cmp, x, y), Const.ofInt(0));
        arrays.add(t);
        stores.add(store(arrays.size() - 1, t, new Select(cond, x, y)));
        arrays.add(t);
        stores.add(new Store(arrays.size() - 1, t, Index.I, y, cond)); // conditional store keeps the old value
      }
    }
    Object[] data = new Object[arrays.size()];
    for (int a = 0; a < data.length; a++) data[a] = array(t, rnd, N);
    assertSameAsReference(ocl, map(arrays, List.of(), stores), data, new long[0], N);
  }

  @Test
  void integerComparesAndBooleanLogic() throws ExecutionException {
    Random rnd = new Random(50);
    Node x = load(0, Type.LONG);
    Node y = load(1, Type.LONG);
    Node p = new Compare(Cond.LT, x, y);
    Node q = new Compare(Cond.EQ, new Binary(BinaryOp.AND, load(2, Type.INT), Const.ofInt(1)), Const.ofInt(0));
    List<Store> stores = List.of(
        store(3, Type.BOOLEAN, new Select(new Binary(BinaryOp.XOR, p, q), Const.ofInt(1), Const.ofInt(0))),
        store(4, Type.LONG, new Select(new Unary(UnaryOp.NOT, new Binary(BinaryOp.OR, p, q)), x, y)),
        new Store(5, Type.INT, Index.I, load(2, Type.INT), new Binary(BinaryOp.AND, p, q)));
    List<Type> arrays = List.of(Type.LONG, Type.LONG, Type.INT, Type.BOOLEAN, Type.LONG, Type.INT);
    Object[] data = new Object[arrays.size()];
    for (int a = 0; a < data.length; a++) data[a] = array(arrays.get(a), rnd, N);
    assertSameAsReference(ocl, map(arrays, List.of(), stores), data, new long[0], N);
  }

  @Test
  void parametersOfEveryType() throws ExecutionException {
    Random rnd = new Random(60);
    List<Type> types = List.of(Type.INT, Type.LONG, Type.FLOAT, Type.DOUBLE);
    List<Type> arrays = new ArrayList<>();
    List<Store> stores = new ArrayList<>();
    for (int k = 0; k < types.size(); k++) {
      Type t = types.get(k);
      arrays.add(t);
      arrays.add(t);
      stores.add(store(2 * k + 1, t, new Binary(BinaryOp.MUL, load(2 * k, t), new Param(k, t))));
    }
    Object[] data = new Object[arrays.size()];
    for (int a = 0; a < data.length; a++) data[a] = array(arrays.get(a), rnd, N);
    long[] params = {-7, Long.MIN_VALUE + 3, Float.floatToRawIntBits(-1.5e-38f), Double.doubleToRawLongBits(Double.MIN_VALUE * 3)};
    assertSameAsReference(ocl, map(arrays, types, stores), data, params, N);
  }

  @Test
  void stepsAndOffsets() throws ExecutionException {
    Random rnd = new Random(70);
    // out[2*i + 1] = x[i + 3] * 2 + p0, over i = start, start + step, ...
    Node i = Index.I;
    Node value = new Binary(BinaryOp.ADD, new Binary(BinaryOp.MUL,
        new Load(0, Type.DOUBLE, new Binary(BinaryOp.ADD, i, Const.ofInt(3))), Const.ofDouble(2)), Const.ofDouble(0.25));
    Node outIndex = new Binary(BinaryOp.ADD, new Binary(BinaryOp.MUL, i, Const.ofInt(2)), new Param(0, Type.INT));
    LoopTemplate t = new LoopTemplate(List.of(Type.DOUBLE, Type.DOUBLE), List.of(Type.INT), List.of(),
        List.of(new Store(1, Type.DOUBLE, outIndex, value, Const.TRUE)), List.of());
    int n = 400;
    for (int[] range : new int[][] {{0, 1, 390}, {5, 2, 190}, {396, -1, 397}, {395, -3, 130}, {10, 1, 0}}) {
      Object[] data = {doubles(rnd, n), doubles(rnd, 2 * n)};
      assertSameAsReference(ocl, t, data, new long[] {1}, new long[0], range[0], range[1], range[2], ExecutionOptions.EXACT);
    }
  }

  private static Reduction reduction(int acc, Type t, ReduceOp op, Node e) {
    Node a = new Acc(acc, t);
    Node update = switch (op) {
      case ADD -> new Binary(BinaryOp.ADD, a, e);
      case MUL -> new Binary(BinaryOp.MUL, a, e);
      case AND -> new Binary(BinaryOp.AND, a, e);
      case OR -> new Binary(BinaryOp.OR, a, e);
      case XOR -> new Binary(BinaryOp.XOR, a, e);
      case MIN -> new Binary(BinaryOp.MIN, a, e);
      case MAX -> new Binary(BinaryOp.MAX, a, e);
      default -> new Select(less(t, op, e, a), e, a);
    };
    return new Reduction(acc, t, update, op, e);
  }

  /** The condition javac compiles for {@code if (e OP acc)}: fcmpg for < and <=, fcmpl for > and >=. */
  private static Node less(Type t, ReduceOp op, Node e, Node a) {
    Cond c = op.selectCond();
    if (!t.isFloating()) return new Compare(c, e, a);
    BinaryOp cmp = c == Cond.LT || c == Cond.LE ? BinaryOp.CMPG : BinaryOp.CMPL;
    return new Compare(c, new Binary(cmp, e, a), Const.ofInt(0));
  }

  @ParameterizedTest
  @EnumSource(value = Type.class, names = {"INT", "LONG"})
  void integerReductionsAreExact(Type t) throws ExecutionException {
    Random rnd = new Random(80 + t.ordinal());
    List<ReduceOp> ops = List.of(ReduceOp.values());
    List<Reduction> reductions = new ArrayList<>();
    Node x = load(0, t);
    for (int r = 0; r < ops.size(); r++) reductions.add(reduction(r, t, ops.get(r), x));
    // a conditional count: if (x < 0) count++
    Node negative = new Compare(Cond.LT, x, t == Type.INT ? Const.ofInt(0) : Const.ofLong(0));
    Node one = t == Type.INT ? Const.ofInt(1) : Const.ofLong(1);
    Node zero = t == Type.INT ? Const.ofInt(0) : Const.ofLong(0);
    int c = ops.size();
    reductions.add(new Reduction(c, t, new Select(negative, new Binary(BinaryOp.ADD, new Acc(c, t), one), new Acc(c, t)),
        ReduceOp.ADD, new Select(negative, one, zero)));
    List<Type> accTypes = new ArrayList<>();
    for (int r = 0; r < reductions.size(); r++) accTypes.add(t);
    LoopTemplate template = new LoopTemplate(List.of(t), List.of(), accTypes, List.of(), reductions);
    for (int n : new int[] {1, 63, 1000, 70_001}) {
      Object[] data = {array(t, rnd, n)};
      long[] accs = new long[accTypes.size()];
      for (int r = 0; r < accs.length; r++) accs[r] = rnd.nextInt(5) - 2;
      assertSameAsReference(ocl, template, data, new long[0], accs, 0, 1, n, ExecutionOptions.EXACT);
    }
  }

  @ParameterizedTest
  @EnumSource(value = Type.class, names = {"FLOAT", "DOUBLE"})
  void floatingMinMaxAndSelectReductionsAreExact(Type t) throws ExecutionException {
    Random rnd = new Random(90 + t.ordinal());
    List<ReduceOp> ops = List.of(ReduceOp.MIN, ReduceOp.MAX, ReduceOp.SELECT_LT, ReduceOp.SELECT_LE, ReduceOp.SELECT_GT, ReduceOp.SELECT_GE);
    List<Reduction> reductions = new ArrayList<>();
    List<Type> accTypes = new ArrayList<>();
    for (int r = 0; r < ops.size(); r++) {
      reductions.add(reduction(r, t, ops.get(r), load(0, t)));
      accTypes.add(t);
    }
    LoopTemplate template = new LoopTemplate(List.of(t), List.of(), accTypes, List.of(), reductions);
    long plusZero = t == Type.FLOAT ? Float.floatToRawIntBits(0f) : Double.doubleToRawLongBits(0.0);
    long minusZero = t == Type.FLOAT ? Float.floatToRawIntBits(-0f) : Double.doubleToRawLongBits(-0.0);
    long nan = t == Type.FLOAT ? Float.floatToRawIntBits(Float.NaN) : Double.doubleToRawLongBits(Double.NaN);
    for (int trial = 0; trial < 6; trial++) {
      int n = 500 + trial * 9000;
      Object data;
      if (trial % 2 == 0) {
        data = array(t, rnd, n); // specials including NaN, infinities, +-0.0
      } else { // only zeros of both signs, and a few NaNs: which zero wins depends on the order
        double[] d = new double[n];
        for (int j = 0; j < n; j++) d[j] = rnd.nextInt(50) == 0 ? Double.NaN : rnd.nextBoolean() ? 0.0 : -0.0;
        if (t == Type.FLOAT) {
          float[] f = new float[n];
          for (int j = 0; j < n; j++) f[j] = (float) d[j];
          data = f;
        } else {
          data = d;
        }
      }
      long[] accs = new long[ops.size()];
      for (int r = 0; r < accs.length; r++) accs[r] = new long[] {plusZero, minusZero, nan, ops.get(r).identity(t)}[(trial + r) % 4];
      assertSameAsReference(ocl, template, new Object[] {data}, new long[0], accs, 0, 1, n, ExecutionOptions.EXACT);
    }
  }

  /**
   * With reductions=reassociate a float sum is split into work-item, work-group and host partials. Any order
   * of summing n terms differs from the sequential one by at most 2 (n - 1) u sum|x| (u the unit roundoff).
   */
  @ParameterizedTest
  @EnumSource(value = Type.class, names = {"FLOAT", "DOUBLE"})
  void reassociatedSumsStayWithinTheBound(Type t) throws ExecutionException {
    Random rnd = new Random(100 + t.ordinal());
    int n = 100_000;
    LoopTemplate template = new LoopTemplate(List.of(t), List.of(), List.of(t), List.of(),
        List.of(reduction(0, t, ReduceOp.ADD, load(0, t))));
    ExecutionOptions reassociate = new ExecutionOptions(true, false);
    assertFalse(ocl.supports(template, ExecutionOptions.EXACT));
    assertTrue(ocl.supports(template, reassociate));
    double[] x = new double[n];
    double sumAbs = 0;
    for (int j = 0; j < n; j++) {
      x[j] = rnd.nextGaussian() * 100;
      if (t == Type.FLOAT) x[j] = (float) x[j];
      sumAbs += Math.abs(x[j]);
    }
    Object data = x;
    long init = t == Type.FLOAT ? Float.floatToRawIntBits(0f) : Double.doubleToRawLongBits(0.0);
    if (t == Type.FLOAT) {
      float[] f = new float[n];
      for (int j = 0; j < n; j++) f[j] = (float) x[j];
      data = f;
    }
    long[] expected = {init};
    new io.looplift.executors.reference.ReferenceExecutor().execute(new Launch(template, new Object[] {data}, new long[0], expected, 0, 1, n), reassociate);
    long[] actual = {init};
    ocl.execute(new Launch(template, new Object[] {data}, new long[0], actual, 0, 1, n), reassociate);
    double u = t == Type.FLOAT ? 0x1p-24 : 0x1p-53;
    double e = t == Type.FLOAT ? Float.intBitsToFloat((int) expected[0]) : Double.longBitsToDouble(expected[0]);
    double a = t == Type.FLOAT ? Float.intBitsToFloat((int) actual[0]) : Double.longBitsToDouble(actual[0]);
    double bound = 2.0 * (n - 1) * u * sumAbs;
    System.out.printf("reassociated %s sum of %d: |diff| %.3g, bound %.3g%n", t, n, Math.abs(a - e), bound);
    assertTrue(Math.abs(a - e) <= bound, () -> a + " vs " + e);
  }

  @Test
  void launchesFromManyThreads() throws Exception {
    LoopTemplate t = map(List.of(Type.INT, Type.INT), List.of(Type.INT),
        List.of(store(1, Type.INT, new Binary(BinaryOp.MUL, load(0, Type.INT), new Param(0, Type.INT)))));
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int task = 0; task < 32; task++) {
        int seed = task;
        done.add(pool.submit(() -> {
          Random rnd = new Random(seed);
          assertSameAsReference(ocl, t, new Object[] {ints(rnd, 5000), ints(rnd, 5000)}, new long[] {seed * 7919L}, 5000);
          return null;
        }));
      }
      for (Future<?> f : done) f.get();
    } finally {
      pool.shutdown();
    }
  }

  @Test
  void unsupportedTemplatesAreDeclinedAndWriteNothing() {
    Node x = load(0, Type.DOUBLE);
    Call sin = new Call("java/lang/Math", "sin", "(D)D", List.of(x));
    LoopTemplate transcendental = map(List.of(Type.DOUBLE, Type.DOUBLE), List.of(), List.of(store(1, Type.DOUBLE, sin)));
    assertFalse(ocl.supports(transcendental, ExecutionOptions.EXACT));
    assertTrue(ocl.supports(transcendental, new ExecutionOptions(false, true)));
    double[] out = {1, 2, 3};
    Launch launch = new Launch(transcendental, new Object[] {new double[] {4, 5, 6}, out}, new long[0], new long[0], 0, 1, 3);
    assertThrows(ExecutionException.class, () -> ocl.execute(launch, ExecutionOptions.EXACT));
    assertArrayEquals(new double[] {1, 2, 3}, out);

    Call unknown = new Call("java/lang/Math", "signum", "(D)D", List.of(x));
    assertFalse(ocl.supports(map(List.of(Type.DOUBLE, Type.DOUBLE), List.of(), List.of(store(1, Type.DOUBLE, unknown))),
        new ExecutionOptions(true, true)));

    // acc = acc * 3 + x: not a recognized associative shape, so it runs in order on the JVM
    Node ordered = new Binary(BinaryOp.ADD, new Binary(BinaryOp.MUL, new Acc(0, Type.INT), Const.ofInt(3)), load(0, Type.INT));
    LoopTemplate orderedSum = new LoopTemplate(List.of(Type.INT), List.of(), List.of(Type.INT), List.of(),
        List.of(new Reduction(0, Type.INT, ordered, null, null)));
    assertFalse(ocl.supports(orderedSum, new ExecutionOptions(true, true)));

    // a store that reads the accumulator (a prefix sum)
    Reduction sum = reduction(0, Type.INT, ReduceOp.ADD, load(0, Type.INT));
    LoopTemplate prefix = new LoopTemplate(List.of(Type.INT, Type.INT), List.of(), List.of(Type.INT),
        List.of(store(1, Type.INT, new Acc(0, Type.INT))), List.of(sum));
    assertFalse(ocl.supports(prefix, new ExecutionOptions(true, true)));
  }

  @Test
  void closedExecutorThrowsAndWritesNothing(@TempDir Path dir) throws ExecutionException {
    OpenClExecutor closed = open(dir);
    closed.close();
    int[] out = {1, 2};
    LoopTemplate t = map(List.of(Type.INT, Type.INT), List.of(), List.of(store(1, Type.INT, load(0, Type.INT))));
    assertThrows(ExecutionException.class,
        () -> closed.execute(new Launch(t, new Object[] {new int[] {5, 6}, out}, new long[0], new long[0], 0, 1, 2), ExecutionOptions.EXACT));
    assertArrayEquals(new int[] {1, 2}, out);
  }
}
