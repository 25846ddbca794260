package io.looplift.analyzer;

import io.looplift.ir.Binary;
import io.looplift.ir.Const;
import io.looplift.ir.Index;
import io.looplift.ir.Length;
import io.looplift.ir.Loop;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.LoopVar;
import io.looplift.ir.Node;
import io.looplift.ir.Param;
import io.looplift.ir.Select;
import io.looplift.ir.Stmt;
import io.looplift.ir.Unary;
import io.looplift.ir.UnaryOp;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Emits bytecode that estimates, before a loop nest runs, how many iterations of its innermost loops it will
 * run: the outermost loop's trips times, for each inner loop, its trips with the enclosing loops' variables at
 * the middle of their ranges (exact for rectangles and triangles, as the middle row of a triangle has its
 * average length). The rewritten code compares the estimate with {@code min.length}, so that a small nest
 * runs as the original loops without a call into the pipeline, however short its outer loop is.
 *
 * <p>A bound the estimate cannot compute before the nest (anything but constants, parameters, loop
 * variables, sums, differences, products, shifts and row lengths) counts as one trip.
 */
final class WorkEstimate {
  private final LoopAnalyzer.Plan plan;
  private final InsnList il;
  private final int scratch;
  /** The long local holding the middle of each loop variable's range, by variable. */
  private final Map<Node, Integer> middles = new HashMap<>();
  private int nextLocal;

  /**
   * @param scratchLocals where the estimate may keep longs: the first of {@link #slots} free local slots
   */
  private WorkEstimate(LoopAnalyzer.Plan plan, InsnList il, int scratchLocals) {
    this.plan = plan;
    this.il = il;
    this.scratch = scratchLocals;
    this.nextLocal = scratchLocals;
  }

  /**
   * The local slots an estimate for {@code t} may use: two per loop level plus two for the outermost, and four
   * for {@link LongMinMax#of}.
   */
  static int slots(LoopTemplate t) {
    return middleSlots(t) + 4;
  }

  private static int middleSlots(LoopTemplate t) {
    return 2 * (t.loops().size() + 1);
  }

  /**
   * Emits code that leaves the estimate (a long) on the stack. {@code limitLocal} holds the outermost
   * loop's limit; its variable holds its start.
   */
  static void emit(LoopAnalyzer.Plan plan, InsnList il, int limitLocal, int scratchLocals) {
    new WorkEstimate(plan, il, scratchLocals).outermost(limitLocal);
  }

  private void outermost(int limitLocal) {
    // trips ≈ |limit - start|; the middle of the range stands for Index in inner bounds.
    il.add(new VarInsnNode(Opcodes.ILOAD, limitLocal));
    il.add(new InsnNode(Opcodes.I2L));
    il.add(new VarInsnNode(Opcodes.ILOAD, plan.ivar()));
    il.add(new InsnNode(Opcodes.I2L));
    int middle = newLong();
    il.add(new InsnNode(Opcodes.LADD));
    il.add(new InsnNode(Opcodes.ICONST_1));
    il.add(new InsnNode(Opcodes.LSHR));
    il.add(new VarInsnNode(Opcodes.LSTORE, middle));
    middles.put(Index.I, middle);
    il.add(new VarInsnNode(Opcodes.ILOAD, limitLocal));
    il.add(new InsnNode(Opcodes.I2L));
    il.add(new VarInsnNode(Opcodes.ILOAD, plan.ivar()));
    il.add(new InsnNode(Opcodes.I2L));
    il.add(new InsnNode(Opcodes.LSUB));
    il.add(new MethodInsnNode(Opcodes.INVOKESTATIC, "java/lang/Math", "abs", "(J)J", false));
    body(plan.site().template().body());
    il.add(new InsnNode(Opcodes.LMUL));
  }

  /** Pushes max(1, Σ over the loops of {@code stmts} of trips × body). */
  private void body(List<Stmt> stmts) {
    il.add(new InsnNode(Opcodes.LCONST_0));
    for (Stmt s : stmts) {
      if (!(s instanceof Loop l)) continue;
      trips(l);
      body(l.body());
      il.add(new InsnNode(Opcodes.LMUL));
      il.add(new InsnNode(Opcodes.LADD));
    }
    LongMinMax.atLeast(il, 1);
  }

  /** Pushes max(0, (limit - start) / step) and records the middle of the loop's range for inner bounds. */
  private void trips(Loop l) {
    if (!computable(l.start()) || !computable(l.limit())) {
      il.add(new InsnNode(Opcodes.LCONST_1));
      return;
    }
    int middle = newLong();
    value(l.start());
    value(l.limit());
    il.add(new InsnNode(Opcodes.LADD));
    il.add(new InsnNode(Opcodes.ICONST_1));
    il.add(new InsnNode(Opcodes.LSHR));
    il.add(new VarInsnNode(Opcodes.LSTORE, middle));
    middles.put(new LoopVar(l.id()), middle);
    value(l.limit());
    value(l.start());
    il.add(new InsnNode(Opcodes.LSUB));
    LoopRewriter.pushLong(il, l.step());
    il.add(new InsnNode(Opcodes.LDIV));
    LongMinMax.atLeast(il, 0);
  }

  private boolean computable(Node n) {
    if (n instanceof Const || n instanceof Param) return true;
    if (n instanceof Index || n instanceof LoopVar) return middles.containsKey(n);
    if (n instanceof Binary b) {
      return switch (b.op()) {
        case ADD, SUB, MUL, MIN, MAX -> computable(b.x()) && computable(b.y());
        case SHL -> computable(b.x()) && b.y() instanceof Const;
        default -> false;
      };
    }
    if (n instanceof Unary u) return u.op() == UnaryOp.NEG && computable(u.x());
    if (n instanceof Select s) return computable(s.ifTrue()) && computable(s.ifFalse());
    return n instanceof Length len && computable(len.row());
  }

  /** Pushes the value of computable int node {@code n} as a long. */
  private void value(Node n) {
    if (n instanceof Const c) {
      LoopRewriter.pushLong(il, c.intValue());
    } else if (n instanceof Param p) {
      copy(plan.paramRecipes().get(p.index()));
      il.add(new InsnNode(Opcodes.I2L));
    } else if (n instanceof Index || n instanceof LoopVar) {
      il.add(new VarInsnNode(Opcodes.LLOAD, middles.get(n)));
    } else if (n instanceof Binary b) {
      value(b.x());
      if (b.op() == io.looplift.ir.BinaryOp.SHL) {
        il.add(new InsnNode(Opcodes.L2I));
        LoopRewriter.push(il, ((Const) b.y()).intValue() & 31);
        il.add(new InsnNode(Opcodes.ISHL));
        il.add(new InsnNode(Opcodes.I2L));
        return;
      }
      value(b.y());
      switch (b.op()) {
        case MIN, MAX -> LongMinMax.of(il, b.op() == io.looplift.ir.BinaryOp.MAX, minMaxTemp());
        default -> il.add(new InsnNode(switch (b.op()) {
          case ADD -> Opcodes.LADD;
          case SUB -> Opcodes.LSUB;
          default -> Opcodes.LMUL;
        }));
      }
    } else if (n instanceof Select s) {
      // Whichever piece a bound chooses (a block's width or the last block's), the larger is the usual one.
      value(s.ifTrue());
      value(s.ifFalse());
      LongMinMax.of(il, true, minMaxTemp());
    } else if (n instanceof Unary u) {
      value(u.x());
      il.add(new InsnNode(Opcodes.LNEG));
    } else {
      Length len = (Length) n;
      copy(plan.arrayRecipes().get(len.array()));
      value(len.row());
      il.add(new InsnNode(Opcodes.L2I));
      il.add(new InsnNode(Opcodes.AALOAD));
      il.add(new InsnNode(Opcodes.ARRAYLENGTH));
      il.add(new InsnNode(Opcodes.I2L));
    }
  }

  private void copy(List<AbstractInsnNode> recipe) {
    for (AbstractInsnNode in : recipe) il.add(in.clone(Map.of()));
  }

  private int newLong() {
    int slot = nextLocal;
    nextLocal += 2;
    if (nextLocal > minMaxTemp()) throw new IllegalStateException("too few scratch slots");
    return slot;
  }

  private int minMaxTemp() {
    return scratch + middleSlots(plan.site().template());
  }
}
