package io.looplift.progen.jvm;

import static io.looplift.progen.jvm.NodeEmitter.arith;
import static io.looplift.progen.jvm.NodeEmitter.loadOp;
import static io.looplift.progen.jvm.NodeEmitter.storeOp;
import static org.objectweb.asm.Opcodes.*;

import io.looplift.ir.Acc;
import io.looplift.ir.Const;
import io.looplift.ir.Index;
import io.looplift.ir.Load;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Node;
import io.looplift.ir.Nodes;
import io.looplift.ir.ReduceOp;
import io.looplift.ir.Reduction;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;

/**
 * One loop method of a kernel class: prologue (typed array locals, decoded parameters and accumulators,
 * hoisted loop-invariant nodes), the loop, and the epilogue writing accumulators back. Single use.
 */
final class LoopMethod implements NodeEmitter.Operands {
  // Arguments of the static loop methods, in RUN_DESC order.
  private static final int ARRAYS = 0;
  private static final int PARAMS = 1;
  private static final int ACCS = 2;
  private static final int START = 3;
  private static final int STEP = 4;
  private static final int K_FROM = 5;
  private static final int K_TO = 6;

  /** Interleaved partial accumulators for reassociated floating-point sums and products. */
  private static final int UNROLL = 4;
  /**
   * Bodies larger than this are not unrolled: HotSpot does not JIT-compile methods over 8000 bytes of
   * bytecode, and an interpreted kernel is far slower than a latency-bound one.
   */
  private static final int MAX_UNROLLED_NODES = 96;

  private final LoopTemplate t;
  private final boolean split;
  private final boolean unitStride;
  private final List<Node> nodes;
  private final Set<Node> invariant = new HashSet<>();
  private final Map<Node, Integer> slots = new HashMap<>();
  private final int[] arrayLocals;
  private final int[] accLocals;
  /** Per reduction: the UNROLL partial accumulators when it is unrolled, else null. */
  private final int[][] partials;
  private final boolean unrolled;
  private int nextLocal = K_TO + 1;
  private int iLocal;
  private MethodVisitor mv;
  private NodeEmitter code;

  LoopMethod(LoopTemplate t, boolean split, boolean unitStride) {
    this.t = t;
    this.split = split;
    this.unitStride = unitStride;
    this.nodes = Nodes.postOrder(split ? t.partialRoots() : t.roots());
    for (Node n : nodes) {
      if (n instanceof Index || n instanceof Load || n instanceof Acc) continue;
      if (Nodes.children(n).stream().allMatch(invariant::contains)) invariant.add(n);
    }
    this.arrayLocals = new int[t.arrays().size()];
    this.accLocals = new int[t.accumulators().size()];
    this.partials = new int[t.reductions().size()][];
    boolean anyReassociating = split && t.reductions().stream().anyMatch(r -> r.op().reassociates(r.type()));
    this.unrolled = anyReassociating && nodes.size() <= MAX_UNROLLED_NODES;
  }

  void emit(ClassWriter cw, String name, String desc) {
    mv = cw.visitMethod(ACC_PRIVATE | ACC_STATIC, name, desc, null, null);
    code = new NodeEmitter(mv, PARAMS);
    mv.visitCode();
    prologue();
    if (unitStride) unitLoop(); else stridedLoop();
    epilogue();
    mv.visitInsn(RETURN);
    mv.visitMaxs(0, 0);
    mv.visitEnd();
  }

  private int newLocal(Type type) {
    int slot = nextLocal;
    nextLocal += type.isWide() ? 2 : 1;
    return slot;
  }

  private void prologue() {
    boolean[] used = new boolean[arrayLocals.length];
    for (Node n : nodes) {
      if (n instanceof Load l) used[l.array()] = true;
    }
    for (Store s : t.stores()) used[s.array()] = true;
    for (int a = 0; a < used.length; a++) {
      if (!used[a]) continue;
      arrayLocals[a] = newLocal(Type.INT);
      code.argument(ARRAYS, a, "[" + t.arrays().get(a).descriptor(), arrayLocals[a]);
    }
    for (int j = 0; j < accLocals.length; j++) {
      Type type = t.accumulators().get(j);
      accLocals[j] = newLocal(type);
      code.decode(ACCS, j, type);
      mv.visitVarInsn(storeOp(type), accLocals[j]);
    }
    if (unrolled) {
      for (int r = 0; r < partials.length; r++) {
        Reduction red = t.reductions().get(r);
        if (!red.op().reassociates(red.type())) continue;
        // Partial 0 is the accumulator itself; the others start from the identity.
        partials[r] = new int[UNROLL];
        partials[r][0] = accLocals[red.acc()];
        for (int u = 1; u < UNROLL; u++) {
          partials[r][u] = newLocal(red.type());
          code.pushConst(Const.ofBits(red.type(), red.op().identity(red.type())));
          mv.visitVarInsn(storeOp(red.type()), partials[r][u]);
        }
      }
    }
    // Hoist invariant nodes: pure, and the loop runs at least once (run returns early otherwise).
    for (Node n : nodes) {
      if (invariant.contains(n)) compute(n);
    }
  }

  private void epilogue() {
    if (unrolled) {
      for (int r = 0; r < partials.length; r++) {
        if (partials[r] == null) continue;
        Reduction red = t.reductions().get(r);
        int[] p = partials[r];
        // (p0 op p1) op (p2 op p3): a fixed tree, so results are the same run to run.
        combinePartials(red, p[0], p[1]);
        combinePartials(red, p[2], p[3]);
        combinePartials(red, p[0], p[2]);
      }
    }
    for (int j = 0; j < accLocals.length; j++) code.encode(ACCS, j, t.accumulators().get(j), accLocals[j]);
  }

  private void combinePartials(Reduction red, int into, int from) {
    mv.visitVarInsn(loadOp(red.type()), into);
    mv.visitVarInsn(loadOp(red.type()), from);
    mv.visitInsn(arith(red.op() == ReduceOp.ADD ? IADD : IMUL, red.type()));
    mv.visitVarInsn(storeOp(red.type()), into);
  }

  /** {@code for (int i = start + kFrom, hi = start + kTo; i < hi; i++) body}, unrolled when asked. */
  private void unitLoop() {
    iLocal = newLocal(Type.INT);
    int hi = newLocal(Type.INT);
    mv.visitVarInsn(ILOAD, START);
    mv.visitVarInsn(ILOAD, K_FROM);
    mv.visitInsn(IADD);
    mv.visitVarInsn(ISTORE, iLocal);
    mv.visitVarInsn(ILOAD, START);
    mv.visitVarInsn(ILOAD, K_TO);
    mv.visitInsn(IADD);
    mv.visitVarInsn(ISTORE, hi);
    if (unrolled) {
      // No overflow: kTo - kFrom >= 0 and mainHi <= hi.
      int mainHi = unrolledBound(iLocal);
      countedLoop(iLocal, mainHi, UNROLL, () -> mv.visitIincInsn(iLocal, 1));
    }
    countedLoop(iLocal, hi, 1, () -> mv.visitIincInsn(iLocal, 1));
  }

  /**
   * A new local holding {@code base + ((kTo - kFrom) & -UNROLL)}: where the unrolled main loop, counting
   * from the value in local {@code base}, stops and the remainder loop takes over.
   */
  private int unrolledBound(int base) {
    int bound = newLocal(Type.INT);
    mv.visitVarInsn(ILOAD, base);
    mv.visitVarInsn(ILOAD, K_TO);
    mv.visitVarInsn(ILOAD, K_FROM);
    mv.visitInsn(ISUB);
    code.pushInt(-UNROLL);
    mv.visitInsn(IAND);
    mv.visitInsn(IADD);
    mv.visitVarInsn(ISTORE, bound);
    return bound;
  }

  /** {@code for (int k = kFrom, i = start + kFrom * step; k < kTo; k++, i += step) body}. */
  private void stridedLoop() {
    iLocal = newLocal(Type.INT);
    int k = newLocal(Type.INT);
    mv.visitVarInsn(ILOAD, K_FROM);
    mv.visitVarInsn(ISTORE, k);
    mv.visitVarInsn(ILOAD, START);
    mv.visitVarInsn(ILOAD, K_FROM);
    mv.visitVarInsn(ILOAD, STEP);
    mv.visitInsn(IMUL);
    mv.visitInsn(IADD);
    mv.visitVarInsn(ISTORE, iLocal);
    Runnable advance = () -> {
      mv.visitIincInsn(k, 1);
      mv.visitVarInsn(ILOAD, iLocal);
      mv.visitVarInsn(ILOAD, STEP);
      mv.visitInsn(IADD);
      mv.visitVarInsn(ISTORE, iLocal);
    };
    if (unrolled) {
      int kMain = unrolledBound(K_FROM);
      countedLoop(k, kMain, UNROLL, advance);
    }
    countedLoop(k, K_TO, 1, advance);
  }

  /**
   * javac's loop shape: jump to the test at the bottom; {@code copies} bodies, each followed by
   * {@code advance}, while {@code counter < limit}.
   */
  private void countedLoop(int counter, int limit, int copies, Runnable advance) {
    Label body = new Label();
    Label test = new Label();
    mv.visitJumpInsn(GOTO, test);
    mv.visitLabel(body);
    for (int u = 0; u < copies; u++) {
      iteration(u);
      advance.run();
    }
    mv.visitLabel(test);
    mv.visitVarInsn(ILOAD, counter);
    mv.visitVarInsn(ILOAD, limit);
    mv.visitJumpInsn(IF_ICMPLT, body);
  }

  /** One iteration: every distinct node once, then stores in order, then the reductions. */
  private void iteration(int u) {
    for (Node n : nodes) {
      if (!invariant.contains(n) && !(n instanceof Index) && !(n instanceof Acc)) compute(n);
    }
    for (Store s : t.stores()) code.store(s, this);
    if (split) {
      // Elements read no accumulator, so updating one by one equals updating simultaneously.
      for (int r = 0; r < partials.length; r++) {
        Reduction red = t.reductions().get(r);
        code.combine(red, partials[r] != null ? partials[r][u] : accLocals[red.acc()], this);
      }
    } else {
      // Push every new value before assigning any: updates may read other accumulators.
      List<Reduction> rs = t.reductions();
      for (Reduction r : rs) push(r.update());
      for (int r = rs.size() - 1; r >= 0; r--) mv.visitVarInsn(storeOp(rs.get(r).type()), accLocals[rs.get(r).acc()]);
    }
  }

  /** Computes {@code n} from its operands' locals and stores it in a fresh local. */
  private void compute(Node n) {
    if (n instanceof Const || n instanceof Index || n instanceof Acc) return;
    code.value(n, this);
    // One slot per node, reused by every unrolled copy of the body.
    int slot = slots.computeIfAbsent(n, x -> newLocal(x.type()));
    mv.visitVarInsn(storeOp(n.type()), slot);
  }

  /** Pushes the value of an already computed (or constant) node. */
  @Override
  public void push(Node n) {
    if (n instanceof Const c) {
      code.pushConst(c);
    } else if (n instanceof Index) {
      mv.visitVarInsn(ILOAD, iLocal);
    } else if (n instanceof Acc a) {
      mv.visitVarInsn(loadOp(a.type()), accLocals[a.index()]);
    } else {
      mv.visitVarInsn(loadOp(n.type()), slots.get(n));
    }
  }

  @Override
  public void pushArray(int array, Node row) {
    mv.visitVarInsn(ALOAD, arrayLocals[array]);
  }
}
