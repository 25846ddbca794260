package io.looplift.analyzer;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;

/**
 * The control-flow graph of a method: basic blocks over its instruction list, normal successor edges
 * (exception edges are left out: loops are found on normal flow), dominators and natural loops.
 */
final class Cfg {
  /** A basic block: instructions {@code [start, end)} of the method's instruction array. */
  static final class Block {
    final int id;
    final int start;
    int end;
    final List<Block> succs = new ArrayList<>();
    final List<Block> preds = new ArrayList<>();

    Block(int id, int start) {
      this.id = id;
      this.start = start;
    }

    @Override
    public String toString() { return "B" + id + "[" + start + "," + end + ")"; }
  }

  /** A natural loop: the header and every block that reaches a back edge without passing the header. */
  static final class Loop {
    final Block header;
    final BitSet blocks = new BitSet();
    final List<Block> latches = new ArrayList<>();

    Loop(Block header) { this.header = header; }

    boolean contains(Block b) { return blocks.get(b.id); }
  }

  final AbstractInsnNode[] insns;
  final List<Block> blocks = new ArrayList<>();
  private final Block[] blockOf;
  private BitSet[] dominators;

  Cfg(MethodNode mn) {
    InsnList list = mn.instructions;
    insns = list.toArray();
    blockOf = new Block[insns.length];
    BitSet leaders = new BitSet();
    if (insns.length > 0) leaders.set(0);
    for (TryCatchBlockNode tcb : mn.tryCatchBlocks) leaders.set(list.indexOf(tcb.handler));
    for (int k = 0; k < insns.length; k++) {
      AbstractInsnNode in = insns[k];
      // Most instructions jump nowhere: only those that do are asked for their targets (a list each).
      if (in instanceof JumpInsnNode j) {
        leaders.set(list.indexOf(j.label));
      } else if (in instanceof TableSwitchInsnNode || in instanceof LookupSwitchInsnNode) {
        for (LabelNode target : targets(in)) leaders.set(list.indexOf(target));
      }
      if (endsBlock(in) && k + 1 < insns.length) leaders.set(k + 1);
    }
    Block current = null;
    for (int k = 0; k < insns.length; k++) {
      if (leaders.get(k)) {
        if (current != null) current.end = k;
        current = new Block(blocks.size(), k);
        blocks.add(current);
      }
      blockOf[k] = current;
    }
    if (current != null) current.end = insns.length;
    for (Block b : blocks) {
      AbstractInsnNode last = insns[b.end - 1];
      for (LabelNode target : targets(last)) link(b, blockOf[list.indexOf(target)]);
      if (fallsThrough(last) && b.end < insns.length) link(b, blockOf[b.end]);
    }
  }

  private static void link(Block from, Block to) {
    if (!from.succs.contains(to)) {
      from.succs.add(to);
      to.preds.add(from);
    }
  }

  Block blockOf(int insnIndex) { return blockOf[insnIndex]; }

  /** The labels an instruction may jump to. */
  static List<LabelNode> targets(AbstractInsnNode in) {
    if (in instanceof JumpInsnNode j) return List.of(j.label);
    if (in instanceof TableSwitchInsnNode t) {
      List<LabelNode> l = new ArrayList<>(t.labels);
      l.add(t.dflt);
      return l;
    }
    if (in instanceof LookupSwitchInsnNode t) {
      List<LabelNode> l = new ArrayList<>(t.labels);
      l.add(t.dflt);
      return l;
    }
    return List.of();
  }

  static boolean endsBlock(AbstractInsnNode in) {
    return in instanceof JumpInsnNode || in instanceof TableSwitchInsnNode || in instanceof LookupSwitchInsnNode
        || !fallsThrough(in);
  }

  static boolean fallsThrough(AbstractInsnNode in) {
    int op = in.getOpcode();
    return op != Opcodes.GOTO && op != Opcodes.ATHROW && op != Opcodes.RET && op != Opcodes.TABLESWITCH
        && op != Opcodes.LOOKUPSWITCH && !(op >= Opcodes.IRETURN && op <= Opcodes.RETURN);
  }

  /** True when {@code a} dominates {@code b} (every path from the entry to b passes a). */
  boolean dominates(Block a, Block b) {
    if (dominators == null) computeDominators();
    return dominators[b.id].get(a.id);
  }

  private void computeDominators() {
    int n = blocks.size();
    dominators = new BitSet[n];
    BitSet all = new BitSet();
    all.set(0, n);
    for (int k = 0; k < n; k++) {
      dominators[k] = (BitSet) all.clone();
    }
    // Blocks without normal predecessors (the entry, exception handlers, dead code) are roots of their own.
    for (Block b : blocks) {
      if (b.id == 0 || b.preds.isEmpty()) {
        dominators[b.id] = new BitSet();
        dominators[b.id].set(b.id);
      }
    }
    boolean changed = true;
    while (changed) {
      changed = false;
      for (int k = 1; k < n; k++) {
        Block b = blocks.get(k);
        if (b.preds.isEmpty()) continue;
        BitSet d = null;
        for (Block p : b.preds) {
          if (d == null) d = (BitSet) dominators[p.id].clone();
          else d.and(dominators[p.id]);
        }
        d.set(k);
        if (!d.equals(dominators[k])) {
          dominators[k] = d;
          changed = true;
        }
      }
    }
  }

  /** The natural loops, one per header (back edges to one header merged). */
  List<Loop> loops() {
    Map<Block, Loop> byHeader = new HashMap<>();
    List<Loop> result = new ArrayList<>();
    for (Block b : blocks) {
      for (Block s : b.succs) {
        if (!dominates(s, b)) continue;
        Loop loop = byHeader.get(s);
        if (loop == null) {
          loop = new Loop(s);
          byHeader.put(s, loop);
          result.add(loop);
          loop.blocks.set(s.id);
        }
        loop.latches.add(b);
        List<Block> work = new ArrayList<>(List.of(b));
        while (!work.isEmpty()) {
          Block x = work.remove(work.size() - 1);
          if (loop.blocks.get(x.id)) continue;
          loop.blocks.set(x.id);
          work.addAll(x.preds);
        }
      }
    }
    return result;
  }
}
