package io.looplift.analyzer;

import static io.looplift.analyzer.MethodBuilder.method;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.objectweb.asm.Opcodes.*;

import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Const;
import io.looplift.ir.Convert;
import io.looplift.ir.Index;
import io.looplift.ir.Interpreter;
import io.looplift.ir.Load;
import io.looplift.ir.Node;
import io.looplift.ir.Nodes;
import io.looplift.ir.Param;
import io.looplift.ir.Select;
import io.looplift.ir.Type;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * {@link SymFrame} executing with {@link SymInterpreter}, walked by {@link BlockWalker}: ASM's stack
 * shuffles over ints and longs, store-to-load forwarding through the frame's array memory, and joins that
 * become selects.
 */
class SymFrameTest {
  private static final Param P0_INT = new Param(0, Type.INT);
  private static final Param P0_LONG = new Param(0, Type.LONG);
  private static final Param P1_INT = new Param(1, Type.INT);
  private static final Param P1_LONG = new Param(1, Type.LONG);
  private static final Param P2_INT = new Param(2, Type.INT);
  private static final Param P3_INT = new Param(3, Type.INT);
  private static final Param P0_DOUBLE = new Param(0, Type.DOUBLE);
  private static final Param P1_DOUBLE = new Param(1, Type.DOUBLE);

  private final LoopBody body = new LoopBody();

  @Test
  void dupX2PutsAnIntBelowALong() {
    // (long a, int b): b - (int) (a + (long) b), with the b that dup_x2 copied below a
    Node r = result(method("(JI)I").var(LLOAD, 0).var(ILOAD, 2).insn(DUP_X2).insn(I2L).insn(LADD).insn(L2I)
        .insn(ISUB).insn(IRETURN), -1);
    assertEquals(sub(P1_INT, Convert.of(add(P0_LONG, Convert.of(P1_INT, Type.LONG)), Type.INT)), r);
  }

  @Test
  void dupX2PutsAnIntBelowTwoInts() {
    // (int c, int b, int a): [c, b, a] becomes [a, c, b, a]; a - (c - (b - a))
    Node r = result(method("(III)I").var(ILOAD, 0).var(ILOAD, 1).var(ILOAD, 2).insn(DUP_X2).insn(ISUB).insn(ISUB)
        .insn(ISUB).insn(IRETURN), -1);
    assertEquals(sub(P2_INT, sub(P0_INT, sub(P1_INT, P2_INT))), r);
  }

  @Test
  void dup2X1PutsALongBelowAnInt() {
    // (int b, long a): [b, a] becomes [a, b, a]; the top a goes to local 3, then (a - (long) b) * a
    Node r = result(method("(IJ)J").var(ILOAD, 0).var(LLOAD, 1).insn(DUP2_X1).var(LSTORE, 3).insn(I2L).insn(LSUB)
        .var(LLOAD, 3).insn(LMUL).insn(LRETURN), -1);
    assertEquals(Binary.of(BinaryOp.MUL, sub(P1_LONG, Convert.of(P0_INT, Type.LONG)), P1_LONG), r);
  }

  @Test
  void dup2X1PutsTwoIntsBelowAnInt() {
    // (int c, int b, int a): [c, b, a] becomes [b, a, c, b, a]; b - (a - (c - (b - a)))
    Node r = result(method("(III)I").var(ILOAD, 0).var(ILOAD, 1).var(ILOAD, 2).insn(DUP2_X1).insn(ISUB).insn(ISUB)
        .insn(ISUB).insn(ISUB).insn(IRETURN), -1);
    assertEquals(sub(P1_INT, sub(P2_INT, sub(P0_INT, sub(P1_INT, P2_INT)))), r);
  }

  @Test
  void dup2X2PutsTwoIntsBelowTwoInts() {
    // (int d, int c, int b, int a): [d, c, b, a] becomes [b, a, d, c, b, a]; b - (a - (d - (c - (b - a))))
    Node r = result(method("(IIII)I").var(ILOAD, 0).var(ILOAD, 1).var(ILOAD, 2).var(ILOAD, 3).insn(DUP2_X2)
        .insn(ISUB).insn(ISUB).insn(ISUB).insn(ISUB).insn(ISUB).insn(IRETURN), -1);
    assertEquals(sub(P2_INT, sub(P3_INT, sub(P0_INT, sub(P1_INT, sub(P2_INT, P3_INT))))), r);
  }

  @Test
  void dup2X2PutsADoubleBelowADouble() {
    // (double b, double a): [b, a] becomes [a, b, a]; a - (b - a), as in x[i] *= v, returning the product
    Node r = result(method("(DD)D").var(DLOAD, 0).var(DLOAD, 2).insn(DUP2_X2).insn(DSUB).insn(DSUB)
        .insn(DRETURN), -1);
    assertEquals(sub(P1_DOUBLE, sub(P0_DOUBLE, P1_DOUBLE)), r);
  }

  @Test
  void aLoadOfAnElementStoredInTheSameIterationIsForwarded() {
    // (byte[] x, int i, int v) in iteration i: x[i] = (byte) v; return x[i] + x[i + 1]
    Node r = result(method("([BII)I").var(ALOAD, 0).var(ILOAD, 1).var(ILOAD, 2).insn(BASTORE)
        .var(ALOAD, 0).var(ILOAD, 1).insn(BALOAD)
        .var(ALOAD, 0).var(ILOAD, 1).insn(ICONST_1).insn(IADD).insn(BALOAD)
        .insn(IADD).insn(IRETURN), 1);
    Node next = new Load(0, Type.BYTE, add(Index.I, Const.ofInt(1)));
    assertEquals(add(Convert.of(P0_INT, Type.BYTE), next), r, "the store truncates to byte; x[i + 1] is read");
    assertEquals(1, body.statements().size());
    assertEquals(1, body.accesses.stream().filter(a -> !a.write()).count(), "only x[i + 1] reads the array");
    assertTrue(body.loadAfterStore);
  }

  @Test
  void pathsJoinAsSelectsOfLocalsStackValuesAndStoredElements() throws Throwable {
    // (int[] a, int i, int x, int y) in iteration i:
    //   int m = x < y ? x : y   (the value of ?: is on the stack at the join)
    //   if (x < y) a[i] = x     (an element stored on one path only)
    //   return m + a[i]
    MethodBuilder m = method("([IIII)I")
        .var(ILOAD, 2).var(ILOAD, 3).jump(IF_ICMPGE, "else")
        .var(ALOAD, 0).var(ILOAD, 1).var(ILOAD, 2).insn(IASTORE)
        .var(ILOAD, 2).jump(GOTO, "join")
        .label("else").var(ILOAD, 3)
        .label("join").var(ALOAD, 0).var(ILOAD, 1).insn(IALOAD).insn(IADD).insn(IRETURN);
    Node r = result(m, 1);
    assertTrue(Nodes.anyMatch(r, n -> n instanceof Select), r::toString);
    assertFalse(body.loadAfterStore, "the load of a[i] after the join is the stored value or the array's");
    int[][] cases = {{1, 2}, {2, 1}, {5, 5}, {-3, 7}};
    for (int[] c : cases) {
      int[] a = {10, 20, 30};
      int i = 1;
      long lifted = new Interpreter(new Object[] {a.clone()}, new long[] {c[0], c[1]}, new long[0]).evaluate(r, i);
      assertEquals(m.run(a, i, c[0], c[1]), (int) lifted, "x=" + c[0] + " y=" + c[1]);
    }
  }

  private static Node add(Node x, Node y) { return Binary.of(BinaryOp.ADD, x, y); }

  private static Node sub(Node x, Node y) { return Binary.of(BinaryOp.SUB, x, y); }

  /**
   * Walks {@code m}, which must have one return, as a loop body: each argument is a parameter, or the loop
   * index for local {@code ivar} (-1: none), or an invariant array. Returns the IR of the returned value.
   */
  private Node result(MethodBuilder m, int ivar) {
    MethodContext ctx = m.context();
    SymInterpreter sym = new SymInterpreter(ctx, body);
    SymFrame frame = new SymFrame(ctx.method.maxLocals, ctx.method.maxStack);
    int var = 0;
    for (org.objectweb.asm.Type t : org.objectweb.asm.Type.getArgumentTypes(ctx.method.desc)) {
      List<org.objectweb.asm.tree.AbstractInsnNode> recipe = List.of(new VarInsnNode(t.getOpcode(ILOAD), var));
      if (var == ivar) frame.setLocal(var, SymValue.primitive(Index.I, null));
      else if (t.getSort() == org.objectweb.asm.Type.ARRAY) frame.setLocal(var, SymValue.reference(t, recipe));
      else frame.setLocal(var, body.param(Type.ofDescriptor(t.getDescriptor().charAt(0)), recipe));
      var += t.getSize();
    }
    List<SymFrame> returns = new ArrayList<>();
    new BlockWalker(ctx, sym).walk(ctx.cfg.blocks.get(0), frame, b -> true, null, (insn, f) -> returns.add(f));
    assertEquals(1, returns.size(), "returns");
    SymFrame end = returns.get(0);
    return end.getStack(end.getStackSize() - 1).node();
  }
}
