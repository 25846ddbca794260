package io.looplift.analyzer;

import io.looplift.bridge.LoopBridge;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LocalVariableNode;
import org.objectweb.asm.tree.TryCatchBlockNode;

/**
 * The copy of a rewritten loop that its timed runs go through. When the pipeline asks to time the original
 * loop ({@link LoopBridge#TIMED}), the preamble jumps to this copy, placed after it at the end of the method,
 * which calls {@link LoopBridge#ran} on its way to the loop's exit. The loop in place then has no check at
 * its exit: C2 shapes an outer loop after every branch its bytecode has, even one that is dead code to it,
 * and such a check (with the read point's) cost a put-back 8-wide inner loop 6% of its outer loop's time.
 */
final class TimedCopy {
  private TimedCopy() {}

  /**
   * Appends the copy of {@code plan}'s loop (its every block: a nest's inner loops too) to the method and
   * returns the label of its header; its way out to {@code exit} reports the run first. {@code exit} is where
   * the loop's exit leads: the start of its exit block, or the preamble of the loop that block heads (its
   * entry already redirected there). The exception handlers and the local variables' names that cover the
   * loop's instructions cover their copies too.
   */
  static LabelNode emit(MethodContext ctx, LoopAnalyzer.Plan plan, int siteId, LabelNode exit) {
    InsnList il = ctx.method.instructions;
    AbstractInsnNode[] insns = ctx.insns;
    List<Cfg.Block> blocks = new ArrayList<>();
    for (Cfg.Block b : ctx.cfg.blocks) {
      if (plan.loop().contains(b)) blocks.add(b);
    }
    blocks.sort(Comparator.comparingInt(b -> b.start));
    // Each block's first instruction and the one after it, as labels: a block's copy starts at the copy of
    // its label and, where the block falls through, jumps to the copy of the next one's (or to the report).
    Map<Integer, LabelNode> labelAt = new HashMap<>();
    // The exit block's label: where the block starts with none, the rewriter put exit there (where exit is
    // another loop's preamble, the block is that loop's header, which starts with one).
    LabelNode exitBlock = insns[plan.exit().start] instanceof LabelNode l ? l : exit;
    labelAt.put(plan.exit().start, exitBlock);
    for (Cfg.Block b : blocks) {
      labelAt.computeIfAbsent(b.start, k -> LoopRewriter.labelAt(il, insns[k]));
      if (b.end < insns.length) labelAt.computeIfAbsent(b.end, k -> LoopRewriter.labelAt(il, insns[k]));
    }
    // What follows the method's own code: its preambles, added so far.
    AbstractInsnNode after = insns[insns.length - 1].getNext();
    Map<AbstractInsnNode, Integer> position = new HashMap<>();
    Map<LabelNode, LabelNode> labels = new HashMap<>();
    int k = 0;
    for (AbstractInsnNode in = il.getFirst(); in != null; in = in.getNext()) {
      position.put(in, k++);
      if (in instanceof LabelNode l) labels.put(l, l);
    }
    for (Cfg.Block b : blocks) {
      for (AbstractInsnNode in = labelAt.get(b.start); in != stop(b, labelAt, insns, after); in = in.getNext()) {
        if (in instanceof LabelNode l) labels.put(l, new LabelNode());
      }
    }
    LabelNode report = new LabelNode();
    labels.put(exitBlock, report);
    labels.put(exit, report);

    List<TryCatchBlockNode> handlers = new ArrayList<>(ctx.method.tryCatchBlocks);
    List<LocalVariableNode> variables = ctx.method.localVariables == null ? List.of() : new ArrayList<>(ctx.method.localVariables);
    for (Cfg.Block b : blocks) {
      LabelNode first = labelAt.get(b.start);
      AbstractInsnNode stop = stop(b, labelAt, insns, after);
      AbstractInsnNode last = null;
      for (AbstractInsnNode in = first; in != stop; in = in.getNext()) {
        if (in instanceof FrameNode) continue; // frames are computed again when the class is written
        il.add(in.clone(labels));
        if (in.getOpcode() >= 0) last = in;
      }
      LabelNode copyEnd = new LabelNode();
      il.add(copyEnd);
      if (b.end < insns.length && (last == null || Cfg.fallsThrough(last))) {
        il.add(new JumpInsnNode(Opcodes.GOTO, labels.get((LabelNode) stop)));
      }
      int from = position.get(first);
      int to = stop == null ? Integer.MAX_VALUE : position.get(stop);
      for (TryCatchBlockNode t : handlers) {
        int start = position.get(t.start);
        int end = position.get(t.end);
        if (end <= from || start >= to) continue;
        ctx.method.tryCatchBlocks.add(new TryCatchBlockNode(start > from ? labels.get(t.start) : labels.get(first),
            end < to ? labels.get(t.end) : copyEnd, labels.get(t.handler), t.type));
      }
      // The variables' names too: a NullPointerException's message names the variable that was null.
      for (LocalVariableNode v : variables) {
        int start = position.get(v.start);
        int end = position.get(v.end);
        if (end <= from || start >= to) continue;
        ctx.method.localVariables.add(new LocalVariableNode(v.name, v.desc, v.signature,
            start > from ? labels.get(v.start) : labels.get(first), end < to ? labels.get(v.end) : copyEnd, v.index));
      }
    }
    il.add(report);
    LoopRewriter.push(il, siteId);
    il.add(LoopRewriter.bridgeCall(LoopBridge.RAN, LoopBridge.RAN_DESC));
    il.add(new JumpInsnNode(Opcodes.GOTO, exit));
    return labels.get((LabelNode) insns[plan.loop().header.start]);
  }

  /**
   * The first instruction after block {@code b}: a label, or, when the block ends the method's own code,
   * {@code after} (null when nothing follows).
   */
  private static AbstractInsnNode stop(Cfg.Block b, Map<Integer, LabelNode> labelAt, AbstractInsnNode[] insns,
      AbstractInsnNode after) {
    return b.end < insns.length ? labelAt.get(b.end) : after;
  }
}
