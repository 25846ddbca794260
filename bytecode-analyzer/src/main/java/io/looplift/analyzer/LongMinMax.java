package io.looplift.analyzer;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Emits the minimum or maximum of longs as a compare and a branch, where a preamble would otherwise call
 * {@code Math.min(long, long)} or {@code Math.max(long, long)}. HotSpot 17's C2 has no intrinsic for those and
 * does not inline a call that ran fewer than 250 times ({@code MinInliningThreshold}), which a nest's preamble
 * has when its method is compiled; a real call makes C2 keep every value live across it on the stack, and the
 * nest's inner loop then reloaded its arrays from the stack at each element (HelperNest, the shape of ojAlgo's
 * matrix product, declined, ran 1.3 times as long as plain Java).
 */
final class LongMinMax {
  private LongMinMax() {}

  /** Replaces the long on top of the stack with the larger of it and {@code bound}. */
  static void atLeast(InsnList il, long bound) {
    withConstant(il, bound, Opcodes.IFGE);
  }

  /** Replaces the long on top of the stack with the smaller of it and {@code bound}. */
  static void atMost(InsnList il, long bound) {
    withConstant(il, bound, Opcodes.IFLE);
  }

  /**
   * Replaces the two longs on top of the stack with the larger ({@code max}) or the smaller of them, using the
   * four local slots from {@code temp}.
   */
  static void of(InsnList il, boolean max, int temp) {
    LabelNode second = new LabelNode();
    LabelNode done = new LabelNode();
    il.add(new VarInsnNode(Opcodes.LSTORE, temp + 2));
    il.add(new VarInsnNode(Opcodes.LSTORE, temp));
    il.add(new VarInsnNode(Opcodes.LLOAD, temp));
    il.add(new VarInsnNode(Opcodes.LLOAD, temp + 2));
    il.add(new InsnNode(Opcodes.LCMP));
    il.add(new JumpInsnNode(max ? Opcodes.IFLT : Opcodes.IFGT, second));
    il.add(new VarInsnNode(Opcodes.LLOAD, temp));
    il.add(new JumpInsnNode(Opcodes.GOTO, done));
    il.add(second);
    il.add(new VarInsnNode(Opcodes.LLOAD, temp + 2));
    il.add(done);
  }

  /** Keeps the long on top when comparing it with {@code bound} passes {@code keepIf}, else puts {@code bound}. */
  private static void withConstant(InsnList il, long bound, int keepIf) {
    LabelNode done = new LabelNode();
    il.add(new InsnNode(Opcodes.DUP2));
    LoopRewriter.pushLong(il, bound);
    il.add(new InsnNode(Opcodes.LCMP));
    il.add(new JumpInsnNode(keepIf, done));
    il.add(new InsnNode(Opcodes.POP2));
    LoopRewriter.pushLong(il, bound);
    il.add(done);
  }
}
