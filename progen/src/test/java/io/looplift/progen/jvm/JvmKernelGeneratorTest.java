package io.looplift.progen.jvm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.ir.Acc;
import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Call;
import io.looplift.ir.Compare;
import io.looplift.ir.Cond;
import io.looplift.ir.Const;
import io.looplift.ir.Evaluator;
import io.looplift.ir.Index;
import io.looplift.ir.Interpreter;
import io.looplift.ir.Load;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Node;
import io.looplift.ir.Param;
import io.looplift.ir.ReduceOp;
import io.looplift.ir.Reduction;
import io.looplift.ir.Select;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

class JvmKernelGeneratorTest {
  private static final AtomicInteger IDS = new AtomicInteger();
  private static final Node I = Index.I;

  @Test
  void generatedClassIsAPublicFinalKernelWithPublicConstructor() throws Exception {
    LoopTemplate t = map(Binary.of(BinaryOp.ADD, load(0), Const.ofDouble(1)));
    JvmKernel k = define(t, false);
    assertTrue(Modifier.isPublic(k.getClass().getModifiers()));
    assertTrue(Modifier.isFinal(k.getClass().getModifiers()));
    assertTrue(Modifier.isPublic(k.getClass().getConstructor().getModifiers()));
  }

  @Test
  void sharedSubexpressionsAreComputedOnce() {
    Node e = call("exp", load(0));
    Node twice = Binary.of(BinaryOp.MUL, e, e);
    LoopTemplate t = new LoopTemplate(List.of(Type.DOUBLE, Type.DOUBLE, Type.DOUBLE), List.of(), List.of(),
        List.of(store(1, twice), store(2, Binary.of(BinaryOp.ADD, e, Const.ofDouble(2)))), List.of());
    // One call per loop method (unit stride and strided), not four.
    assertEquals(2, countCalls(JvmKernelGenerator.generate(t, "io/looplift/progen/jvm/Count", false), "exp"));
  }

  @Test
  void subrangesAndStepsMatchTheInterpreter() throws Exception {
    Node p = new Param(0, Type.DOUBLE);
    Node x = new Load(0, Type.DOUBLE, Binary.of(BinaryOp.ADD, I, Const.ofInt(2)));
    Node value = Select.of(Compare.of(Cond.LT, Binary.of(BinaryOp.CMPG, x, p), Const.ofInt(0)),
        Binary.of(BinaryOp.ADD, x, call("exp", p)), Binary.of(BinaryOp.SUB, x, p));
    LoopTemplate t = new LoopTemplate(List.of(Type.DOUBLE, Type.DOUBLE), List.of(Type.DOUBLE), List.of(),
        List.of(store(1, value)), List.of());
    JvmKernel k = define(t, false);
    Random rnd = new Random(1);
    int n = 64;
    double[] in = new double[n + 2];
    for (int j = 0; j < in.length; j++) in[j] = rnd.nextGaussian();
    long[] params = {Double.doubleToRawLongBits(0.3)};
    int[][] cases = {{0, 1, 0, n}, {0, 1, 5, 9}, {10, 2, 3, 20}, {n - 1, -1, 0, n}, {n - 1, -5, 2, 12}, {0, 1, 7, 7}};
    for (int[] c : cases) {
      double[] want = new double[n];
      double[] got = new double[n];
      reference(t, new Object[] {in, want}, params, new long[0], c[0], c[1], c[2], c[3]);
      k.run(new Object[] {in, got}, params, new long[0], c[0], c[1], c[2], c[3]);
      assertArrayEquals(want, got);
    }
  }

  @Test
  void unitStrideRangeEndingAtIntegerMaxRunsEveryIteration() throws Exception {
    Node idx = Binary.of(BinaryOp.SUB, I, new Param(0, Type.INT));
    LoopTemplate t = new LoopTemplate(List.of(Type.INT), List.of(Type.INT), List.of(),
        List.of(new Store(0, Type.INT, idx, I, Const.TRUE)), List.of());
    int start = Integer.MAX_VALUE - 4;
    int[] out = new int[5];
    define(t, false).run(new Object[] {out}, new long[] {start}, new long[0], start, 1, 0, 5);
    assertArrayEquals(new int[] {start, start + 1, start + 2, start + 3, Integer.MAX_VALUE}, out);
  }

  @Test
  void splitFloatSumCoversEveryRemainder() throws Exception {
    // Small integers: every partial sum is exact, so any split must equal Java's sequential sum.
    LoopTemplate t = new LoopTemplate(List.of(Type.FLOAT), List.of(), List.of(Type.FLOAT), List.of(),
        List.of(reduction(0, Type.FLOAT, ReduceOp.ADD, new Load(0, Type.FLOAT, I))));
    JvmKernel k = define(t, true);
    float[] x = new float[40];
    for (int j = 0; j < x.length; j++) x[j] = j % 7 - 3;
    for (int step : new int[] {1, 2, -1}) {
      for (int from = 0; from < 4; from++) {
        for (int to = from; to < from + 14; to++) {
          int start = step < 0 ? x.length - 1 : 0;
          float java = 0.5f;
          for (int kk = from; kk < to; kk++) java += x[start + kk * step];
          long[] accs = {Float.floatToRawIntBits(0.5f)};
          k.run(new Object[] {x}, new long[0], accs, start, step, from, to);
          assertEquals(java, Float.intBitsToFloat((int) accs[0]), "step " + step + " [" + from + ", " + to + ")");
        }
      }
    }
  }

  @Test
  void splitReductionsUseTheOperatorsJavaSemantics() throws Exception {
    for (ReduceOp op : List.of(ReduceOp.MIN, ReduceOp.MAX, ReduceOp.SELECT_LT, ReduceOp.SELECT_LE, ReduceOp.SELECT_GT,
        ReduceOp.SELECT_GE, ReduceOp.MUL)) {
      Node x = new Load(0, Type.DOUBLE, I);
      LoopTemplate t = new LoopTemplate(List.of(Type.DOUBLE), List.of(), List.of(Type.DOUBLE), List.of(),
          List.of(reduction(0, Type.DOUBLE, op, x)));
      double[] in = {3, Double.NaN, -0.0, 0.0, -2, 8, -2, 8, Double.NaN, 1};
      long[] split = {op.identity(Type.DOUBLE)};
      long[] plain = split.clone();
      long[] want = split.clone();
      define(t, true).run(new Object[] {in}, new long[0], split, 0, 1, 0, in.length);
      define(t, false).run(new Object[] {in}, new long[0], plain, 0, 1, 0, in.length);
      for (double v : in) want[0] = op.combine(Type.DOUBLE, want[0], Double.doubleToRawLongBits(v));
      assertEquals(want[0], plain[0], op.name());
      assertEquals(Double.doubleToLongBits(Double.longBitsToDouble(want[0])),
          Double.doubleToLongBits(Double.longBitsToDouble(split[0])), op.name());
    }
  }

  @Test
  void emptyRangeLeavesAccumulatorsAlone() throws Exception {
    LoopTemplate t = new LoopTemplate(List.of(Type.INT), List.of(), List.of(Type.INT), List.of(),
        List.of(reduction(0, Type.INT, ReduceOp.ADD, new Load(0, Type.INT, I))));
    long[] accs = {42};
    define(t, false).run(new Object[] {new int[1]}, new long[0], accs, 0, 1, 1, 1);
    assertEquals(42, accs[0]);
  }

  @Test
  void refusesToSplitWhatCannotSplit() {
    Acc a = new Acc(0, Type.INT);
    LoopTemplate t = new LoopTemplate(List.of(), List.of(), List.of(Type.INT), List.of(),
        List.of(new Reduction(0, Type.INT, Binary.of(BinaryOp.MUL, a, a), null, null)));
    assertThrows(IllegalArgumentException.class, () -> JvmKernelGenerator.generate(t, "io/looplift/progen/jvm/No", true));
  }

  // ---- helpers ----------------------------------------------------------------------------------------

  private static Node load(int a) { return new Load(a, Type.DOUBLE, I); }

  private static Store store(int a, Node v) { return new Store(a, v.type() == Type.DOUBLE ? Type.DOUBLE : Type.INT, I, v, Const.TRUE); }

  private static LoopTemplate map(Node value) {
    return new LoopTemplate(List.of(Type.DOUBLE, Type.DOUBLE), List.of(), List.of(), List.of(store(1, value)), List.of());
  }

  private static Node call(String name, Node x) { return new Call("java/lang/Math", name, "(D)D", List.of(x)); }

  private static Reduction reduction(int acc, Type t, ReduceOp op, Node e) {
    Acc a = new Acc(acc, t);
    Node update = switch (op) {
      case ADD -> Binary.of(BinaryOp.ADD, a, e);
      case MUL -> Binary.of(BinaryOp.MUL, a, e);
      case MIN -> Binary.of(BinaryOp.MIN, a, e);
      case MAX -> Binary.of(BinaryOp.MAX, a, e);
      default -> {
        Cond c = op.selectCond();
        BinaryOp cmp = c == Cond.LT || c == Cond.LE ? BinaryOp.CMPG : BinaryOp.CMPL;
        yield Select.of(Compare.of(c, Binary.of(cmp, e, a), Const.ofInt(0)), e, a);
      }
    };
    return new Reduction(acc, t, update, op, e);
  }

  private static JvmKernel define(LoopTemplate t, boolean split) throws Exception {
    byte[] bytes = JvmKernelGenerator.generate(t, "io/looplift/progen/jvm/TestKernel" + IDS.incrementAndGet(), split);
    MethodHandles.Lookup hidden = MethodHandles.lookup().defineHiddenClass(bytes, true);
    return (JvmKernel) hidden.lookupClass().getConstructor().newInstance();
  }

  /** What the kernel must compute, straight from the interpreter. */
  private static void reference(LoopTemplate t, Object[] arrays, long[] params, long[] accs, int start, int step, int from, int to) {
    long[] cur = accs.clone();
    Interpreter in = new Interpreter(arrays, params, cur);
    for (int k = from; k < to; k++) {
      int i = start + k * step;
      Map<Node, Long> v = in.evaluate(t.roots(), i);
      for (Store s : t.stores()) {
        if (v.get(s.predicate()) != 0) Evaluator.store(arrays[s.array()], s.elementType(), (int) (long) v.get(s.index()), v.get(s.value()));
      }
      long[] next = cur.clone();
      for (Reduction r : t.reductions()) next[r.acc()] = v.get(r.update());
      System.arraycopy(next, 0, cur, 0, cur.length);
    }
    System.arraycopy(cur, 0, accs, 0, cur.length);
  }

  private static int countCalls(byte[] bytes, String name) {
    AtomicInteger count = new AtomicInteger();
    new ClassReader(bytes).accept(new ClassVisitor(Opcodes.ASM9) {
      @Override
      public MethodVisitor visitMethod(int access, String n, String d, String s, String[] e) {
        return new MethodVisitor(Opcodes.ASM9) {
          @Override
          public void visitMethodInsn(int op, String owner, String mname, String desc, boolean itf) {
            if (mname.equals(name)) count.incrementAndGet();
          }
        };
      }
    }, 0);
    return count.get();
  }
}
