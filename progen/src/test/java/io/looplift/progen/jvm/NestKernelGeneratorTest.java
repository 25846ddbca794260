package io.looplift.progen.jvm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.ir.Acc;
import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Carried;
import io.looplift.ir.CarriedVar;
import io.looplift.ir.Cond;
import io.looplift.ir.Const;
import io.looplift.ir.Convert;
import io.looplift.ir.Index;
import io.looplift.ir.Interpreter;
import io.looplift.ir.Load;
import io.looplift.ir.Loop;
import io.looplift.ir.LoopOut;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.LoopVar;
import io.looplift.ir.Node;
import io.looplift.ir.Param;
import io.looplift.ir.Reduction;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import io.looplift.ir.Unary;
import io.looplift.ir.UnaryOp;
import java.lang.invoke.MethodHandles;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.MethodNode;

/** The shape of nest kernels: what the jam shares, what moves out of loops; and that they compute Java's results. */
class NestKernelGeneratorTest {
  private static final AtomicInteger IDS = new AtomicInteger();
  private static final Node I = Index.I;
  private static final Node ZERO = Const.ofInt(0);

  private static Node add(Node x, Node y) { return Binary.of(BinaryOp.ADD, x, y); }

  private static Node mul(Node x, Node y) { return Binary.of(BinaryOp.MUL, x, y); }

  /** {@code for i: for j (parallel): { double s = 0; for k: s += a[i*n+k] * b[k*n+j]; c[i*n+j] = s; }}. */
  private static LoopTemplate matmul() {
    Node n = new Param(0, Type.INT);
    Node j = new LoopVar(1);
    Node k = new LoopVar(2);
    Node s = new CarriedVar(2, 0, Type.DOUBLE);
    Node a = new Load(0, Type.DOUBLE, add(mul(I, n), k), null, 1);
    Node b = new Load(1, Type.DOUBLE, add(mul(k, n), j), null, 1);
    Loop inner = new Loop(2, ZERO, n, Cond.LT, 1, List.of(new Carried(Type.DOUBLE, Const.ofDouble(0), add(s, mul(a, b)))),
        List.of(), Const.TRUE, false);
    Store c = new Store(2, Type.DOUBLE, add(mul(I, n), j), new LoopOut(2, 0, Type.DOUBLE), Const.TRUE);
    Loop middle = new Loop(1, ZERO, n, Cond.LT, 1, List.of(), List.of(inner, c), Const.TRUE, true);
    return new LoopTemplate(List.of(Type.DOUBLE, Type.DOUBLE, Type.DOUBLE), List.of(Type.INT), List.of(),
        List.of(middle), List.of(), List.of(), false);
  }

  /** {@code for i: for k: for j (parallel): c[i][j] += a[i][k] * b[k][j]} over rows of double[][]. */
  private static LoopTemplate rowsProduct() {
    Node n = new Param(0, Type.INT);
    Node k = new LoopVar(1);
    Node j = new LoopVar(2);
    Node cij = new Load(0, Type.DOUBLE, j, I, 1);
    Node aik = new Load(1, Type.DOUBLE, k, I, 1);
    Node bkj = new Load(2, Type.DOUBLE, j, k, 1);
    Store st = new Store(0, Type.DOUBLE, j, add(cij, mul(aik, bkj)), Const.TRUE, I);
    Loop jLoop = new Loop(2, ZERO, n, Cond.LT, 1, List.of(), List.of(st), Const.TRUE, true);
    Loop kLoop = new Loop(1, ZERO, n, Cond.LT, 1, List.of(), List.of(jLoop), Const.TRUE, false);
    return new LoopTemplate(List.of(Type.DOUBLE, Type.DOUBLE, Type.DOUBLE), List.of(Type.INT), List.of(),
        List.of(kLoop), List.of(), List.of(0, 1, 2), false);
  }

  @Test
  void aJammedMatrixProductLoadsTheSharedRowOncePerInstanceBlock() {
    MethodNode jammed = method(NestKernelGenerator.generate(matmul(), "io/looplift/progen/jvm/Jammed", false, true));
    MethodNode plain = method(NestKernelGenerator.generate(matmul(), "io/looplift/progen/jvm/Plain", false, false));
    // The innermost loop of the jammed block: one load of a, four of b, four multiplies and adds.
    List<AbstractInsnNode> jammedInner = innermostLoops(jammed).get(0);
    assertEquals(5, count(jammedInner, Opcodes.DALOAD));
    assertEquals(4, count(jammedInner, Opcodes.DMUL));
    assertEquals(4, count(jammedInner, Opcodes.DADD));
    // Without the jam, and in the jammed kernel's one-at-a-time path: one of each.
    for (List<AbstractInsnNode> loop : List.of(innermostLoops(plain).get(0), innermostLoops(jammed).get(1))) {
      assertEquals(2, count(loop, Opcodes.DALOAD));
      assertEquals(1, count(loop, Opcodes.DMUL));
    }
  }

  @Test
  void rowsInvariantInALoopAreLoadedBeforeIt() {
    MethodNode m = method(NestKernelGenerator.generate(rowsProduct(), "io/looplift/progen/jvm/Rows", false, false));
    List<AbstractInsnNode> inner = innermostLoops(m).get(0);
    assertEquals(0, count(inner, Opcodes.AALOAD), "c[i] and b[k] are loaded outside the j loop");
    assertEquals(0, count(inner, Opcodes.INVOKESTATIC), "n is decoded once");
    assertEquals(2, count(inner, Opcodes.DALOAD), "a[i][k] is loaded outside the j loop");
  }

  @Test
  void kernelsComputeWhatTheInterpreterComputes() throws Exception {
    Random rnd = new Random(5);
    for (boolean jam : new boolean[] {false, true}) {
      for (int n : new int[] {1, 3, 4, 7, 9}) {
        double[] a = randomDoubles(rnd, n * n);
        double[] b = randomDoubles(rnd, n * n);
        double[] want = new double[n * n];
        double[] got = new double[n * n];
        Interpreter.run(matmul(), new Object[] {a, b, want}, new long[] {n}, new long[0], 0, 1, n);
        NestKernel k = define(matmul(), jam);
        // In two ranges, as two chunks would.
        k.run(new Object[] {a, b, got}, new long[] {n}, new long[0], 0, 1, n, 0, n / 2);
        k.run(new Object[] {a, b, got}, new long[] {n}, new long[0], 0, 1, n, n / 2, n);
        assertArrayEquals(want, got, "n " + n + " jam " + jam);

        double[][] c1 = randomRows(rnd, n, n);
        double[][] c2 = copy(c1);
        double[][] ra = randomRows(rnd, n, n);
        double[][] rb = randomRows(rnd, n, n);
        Interpreter.run(rowsProduct(), new Object[] {c1, ra, rb}, new long[] {n}, new long[0], 0, 1, n);
        define(rowsProduct(), jam).run(new Object[] {c2, ra, rb}, new long[] {n}, new long[0], 0, 1, n, 0, n);
        assertArrayEquals(c1, c2);
      }
    }
  }

  @Test
  void aBodyTooLongToJamForTheJitIsNotJammed() {
    // Jammed, the body of the inner loop would be there five times (four instances and the remainder).
    assertEquals(2, innermostLoops(method(NestKernelGenerator.generate(longConvolution(10), "io/looplift/progen/jvm/Short", false, true))).size());
    assertEquals(1, innermostLoops(method(NestKernelGenerator.generate(longConvolution(400), "io/looplift/progen/jvm/Long", false, true))).size());
  }

  /** {@code for i: { double s = 0; for k < n: s += e(x[i + k]); y[i] = s; }} with {@code e} a chain of {@code length} operations. */
  private static LoopTemplate longConvolution(int length) {
    Node n = new Param(0, Type.INT);
    Node e = new Load(0, Type.DOUBLE, add(I, new LoopVar(1)), null, 1);
    for (int x = 0; x < length; x++) e = x % 2 == 0 ? add(e, Const.ofDouble(x + 0.5)) : mul(e, Const.ofDouble(1 + x / 1e4));
    Node s = new CarriedVar(1, 0, Type.DOUBLE);
    Loop k = new Loop(1, ZERO, n, Cond.LT, 1, List.of(new Carried(Type.DOUBLE, Const.ofDouble(0), add(s, e))), List.of(),
        Const.TRUE, false);
    Store y = new Store(1, Type.DOUBLE, I, new LoopOut(1, 0, Type.DOUBLE), Const.TRUE);
    return new LoopTemplate(List.of(Type.DOUBLE, Type.DOUBLE), List.of(Type.INT), List.of(), List.of(k, y), List.of(), List.of(),
        false);
  }

  @Test
  void refusesFlatTemplatesAndSplitsThatCannotSplit() {
    LoopTemplate flat = new LoopTemplate(List.of(Type.INT), List.of(), List.of(), List.of(new Store(0, Type.INT, I, I, Const.TRUE)),
        List.of());
    assertThrows(IllegalArgumentException.class, () -> NestKernelGenerator.generate(flat, "io/looplift/progen/jvm/F", false, true));
    // acc = acc * 2 + (sum of a row): no associative shape, so no partial results.
    Node acc = new Acc(0, Type.DOUBLE);
    Loop row = new Loop(1, ZERO, Const.ofInt(3), Cond.LT, 1, List.of(new Carried(Type.DOUBLE, Const.ofDouble(0),
        add(new CarriedVar(1, 0, Type.DOUBLE), new Load(0, Type.DOUBLE, new LoopVar(1), null, 1)))), List.of(), Const.TRUE, false);
    LoopTemplate chained = new LoopTemplate(List.of(Type.DOUBLE), List.of(), List.of(Type.DOUBLE), List.of(row),
        List.of(new Reduction(0, Type.DOUBLE, add(mul(acc, Const.ofDouble(2)), new LoopOut(1, 0, Type.DOUBLE)), null, null)),
        List.of(), false);
    assertThrows(IllegalArgumentException.class, () -> NestKernelGenerator.generate(chained, "io/looplift/progen/jvm/C", true, true));
  }

  /**
   * {@code for i: { z[i] = p[i] * 2; double s = 0, c = 0; for j < n: { double d = p[j] - p[i]; s += 1 / (d * d + 1);
   * c += sqrt(d * d); } y[i] = s; acc += c; }}: a pairwise sum bound by division and square root, jammed in lanes.
   */
  private static LoopTemplate pairwise() {
    Node n = new Param(0, Type.INT);
    Node j = new LoopVar(1);
    Node d = Binary.of(BinaryOp.SUB, new Load(0, Type.DOUBLE, j, null, 1), new Load(0, Type.DOUBLE, I, null, 1));
    Node dd = mul(d, d);
    Node s = new CarriedVar(1, 0, Type.DOUBLE);
    Node c = new CarriedVar(1, 1, Type.DOUBLE);
    Loop inner = new Loop(1, ZERO, n, Cond.LT, 1, List.of(
        new Carried(Type.DOUBLE, Const.ofDouble(0), add(s, Binary.of(BinaryOp.DIV, Const.ofDouble(1), add(dd, Const.ofDouble(1))))),
        new Carried(Type.DOUBLE, Const.ofDouble(0), add(c, Unary.of(UnaryOp.SQRT, dd)))), List.of(), Const.TRUE, false);
    Store z = new Store(2, Type.DOUBLE, I, mul(new Load(0, Type.DOUBLE, I, null, 1), Const.ofDouble(2)), Const.TRUE);
    Store y = new Store(1, Type.DOUBLE, I, new LoopOut(1, 0, Type.DOUBLE), Const.TRUE);
    Reduction acc = new Reduction(0, Type.DOUBLE, add(new Acc(0, Type.DOUBLE), new LoopOut(1, 1, Type.DOUBLE)), null, null);
    return new LoopTemplate(List.of(Type.DOUBLE, Type.DOUBLE, Type.DOUBLE), List.of(Type.INT), List.of(Type.DOUBLE),
        List.of(z, inner, y), List.of(acc), List.of(), false);
  }

  /**
   * {@code for i: for j (parallel): { float fx = 0; for k < n: { float dx = px[k] - px[j] + i; fx += dx / (float)
   * sqrt(dx * dx + 1); } f[i * n + j] = fx; }}: lanes at a level inside the outermost loop, over floats.
   */
  private static LoopTemplate forces() {
    Node n = new Param(0, Type.INT);
    Node j = new LoopVar(1);
    Node k = new LoopVar(2);
    Node dx = add(Binary.of(BinaryOp.SUB, new Load(0, Type.FLOAT, k, null, 1), new Load(0, Type.FLOAT, j, null, 1)),
        Convert.of(I, Type.FLOAT));
    Node root = Convert.of(Unary.of(UnaryOp.SQRT, Convert.of(add(mul(dx, dx), Const.ofFloat(1)), Type.DOUBLE)), Type.FLOAT);
    Node fx = new CarriedVar(2, 0, Type.FLOAT);
    Loop kLoop = new Loop(2, ZERO, n, Cond.LT, 1, List.of(new Carried(Type.FLOAT, Const.ofFloat(0),
        add(fx, Binary.of(BinaryOp.DIV, dx, root)))), List.of(), Const.TRUE, false);
    Store f = new Store(1, Type.FLOAT, add(mul(I, n), j), new LoopOut(2, 0, Type.FLOAT), Const.TRUE);
    Loop jLoop = new Loop(1, ZERO, n, Cond.LT, 1, List.of(), List.of(kLoop, f), Const.TRUE, true);
    return new LoopTemplate(List.of(Type.FLOAT, Type.FLOAT), List.of(Type.INT), List.of(), List.of(jLoop), List.of(),
        List.of(), false);
  }

  @Test
  void laneKernelsComputeWhatTheInterpreterComputes() throws Exception {
    Random rnd = new Random(11);
    NestKernel pairwise = define(pairwise(), true);
    NestKernel forces = define(forces(), true);
    assertTrue(allocatesLaneArrays(pairwise()) && allocatesLaneArrays(forces()), "both are jammed in lanes");
    // Fewer lanes than a block, a block and one more, several blocks and a remainder; two ranges as two chunks.
    for (int n : new int[] {1, 5, Jam.LANES + 1, 2 * Jam.LANES + 77}) {
      for (int step : new int[] {1, 3}) {
        int trips = (n + step - 1) / step;
        double[] p = randomDoubles(rnd, n);
        double[] want1 = new double[n], want2 = new double[n], got1 = new double[n], got2 = new double[n];
        long[] wantAcc = {Double.doubleToRawLongBits(0.5)};
        long[] gotAcc = wantAcc.clone();
        Interpreter.run(pairwise(), new Object[] {p, want1, want2}, new long[] {n}, wantAcc, 0, step, trips);
        pairwise.run(new Object[] {p, got1, got2}, new long[] {n}, gotAcc, 0, step, trips, 0, trips / 2);
        pairwise.run(new Object[] {p, got1, got2}, new long[] {n}, gotAcc, 0, step, trips, trips / 2, trips);
        assertArrayEquals(want1, got1, "n " + n + " step " + step);
        assertArrayEquals(want2, got2, "n " + n + " step " + step);
        assertEquals(wantAcc[0], gotAcc[0], "the reduction, lane by lane in Java's order");
      }
      int rows = 3;
      float[] px = new float[n];
      for (int x = 0; x < n; x++) px[x] = (float) rnd.nextGaussian();
      float[] want = new float[rows * n], got = new float[rows * n];
      Interpreter.run(forces(), new Object[] {px, want}, new long[] {n}, new long[0], 0, 1, rows);
      forces.run(new Object[] {px, got}, new long[] {n}, new long[0], 0, 1, rows, 0, rows);
      assertArrayEquals(want, got, "n " + n);
    }
  }

  private static boolean allocatesLaneArrays(LoopTemplate t) {
    ClassNode c = new ClassNode();
    new ClassReader(NestKernelGenerator.generate(t, "io/looplift/progen/jvm/Lanes", false, true)).accept(c, 0);
    return c.methods.stream().anyMatch(m -> List.of(m.instructions.toArray()).stream()
        .anyMatch(x -> x.getOpcode() == Opcodes.NEWARRAY));
  }

  // ---- helpers ----------------------------------------------------------------------------------------

  private static NestKernel define(LoopTemplate t, boolean jam) throws Exception {
    byte[] bytes = NestKernelGenerator.generate(t, "io/looplift/progen/jvm/NestTest" + IDS.incrementAndGet(), false, jam);
    MethodHandles.Lookup hidden = MethodHandles.lookup().defineHiddenClass(bytes, true);
    return (NestKernel) hidden.lookupClass().getConstructor().newInstance();
  }

  private static MethodNode method(byte[] bytes) {
    ClassNode c = new ClassNode();
    new ClassReader(bytes).accept(c, 0);
    // One method for every step, or, when the outermost loop is jammed, the one for steps other than 1.
    return c.methods.stream().filter(m -> m.name.equals("nest") || m.name.equals("strided")).findFirst().orElseThrow();
  }

  /** The instructions of every loop (a backward jump's span) that contains no other loop, in code order. */
  private static List<List<AbstractInsnNode>> innermostLoops(MethodNode m) {
    List<int[]> spans = new ArrayList<>();
    AbstractInsnNode[] insns = m.instructions.toArray();
    for (int x = 0; x < insns.length; x++) {
      if (insns[x] instanceof JumpInsnNode j) {
        int target = m.instructions.indexOf(j.label);
        if (target < x) spans.add(new int[] {target, x});
      }
    }
    List<List<AbstractInsnNode>> loops = new ArrayList<>();
    spans.sort((p, q) -> Integer.compare(p[0], q[0]));
    for (int[] s : spans) {
      boolean inner = spans.stream().noneMatch(o -> o != s && o[0] >= s[0] && o[1] <= s[1]);
      if (inner) loops.add(List.of(insns).subList(s[0], s[1] + 1));
    }
    return loops;
  }

  private static int count(List<AbstractInsnNode> insns, int opcode) {
    return (int) insns.stream().filter(x -> x.getOpcode() == opcode).count();
  }

  private static double[] randomDoubles(Random rnd, int n) {
    double[] d = new double[n];
    for (int x = 0; x < n; x++) d[x] = rnd.nextGaussian() * 1e3;
    return d;
  }

  private static double[][] randomRows(Random rnd, int rows, int cols) {
    double[][] m = new double[rows][];
    for (int r = 0; r < rows; r++) m[r] = randomDoubles(rnd, cols);
    return m;
  }

  private static double[][] copy(double[][] m) {
    double[][] c = new double[m.length][];
    for (int r = 0; r < m.length; r++) c[r] = m[r].clone();
    return c;
  }
}
