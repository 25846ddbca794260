package io.looplift.progen.jvm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.looplift.ir.Acc;
import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Carried;
import io.looplift.ir.CarriedVar;
import io.looplift.ir.Cond;
import io.looplift.ir.Const;
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
