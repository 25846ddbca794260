package io.looplift.analyzer;

import java.util.BitSet;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;

/** Live local variables: which locals may be read before being written, on normal and exception paths. */
final class Liveness {
  private Liveness() {}

  /** The locals live on entry to {@code block}. */
  static BitSet liveAtEntry(MethodContext ctx, Cfg.Block block) {
    Cfg cfg = ctx.cfg;
    int n = cfg.blocks.size();
    BitSet[] use = new BitSet[n];
    BitSet[] def = new BitSet[n];
    BitSet[] in = new BitSet[n];
    BitSet[] handlers = new BitSet[n];
    for (Cfg.Block b : cfg.blocks) {
      use[b.id] = new BitSet();
      def[b.id] = new BitSet();
      in[b.id] = new BitSet();
      handlers[b.id] = new BitSet();
      for (int k = b.start; k < b.end; k++) {
        AbstractInsnNode insn = ctx.insns[k];
        if (insn instanceof VarInsnNode v) {
          boolean store = v.getOpcode() >= Opcodes.ISTORE && v.getOpcode() <= Opcodes.ASTORE;
          if (store) def[b.id].set(v.var);
          else if (!def[b.id].get(v.var)) use[b.id].set(v.var);
        } else if (insn instanceof IincInsnNode ii) {
          if (!def[b.id].get(ii.var)) use[b.id].set(ii.var);
          def[b.id].set(ii.var);
        }
      }
    }
    for (TryCatchBlockNode tcb : ctx.method.tryCatchBlocks) {
      int from = ctx.method.instructions.indexOf(tcb.start);
      int to = ctx.method.instructions.indexOf(tcb.end);
      int handler = cfg.blockOf(ctx.method.instructions.indexOf(tcb.handler)).id;
      for (Cfg.Block b : cfg.blocks) {
        if (b.start < to && b.end > from) handlers[b.id].set(handler);
      }
    }
    boolean changed = true;
    while (changed) {
      changed = false;
      for (int k = n - 1; k >= 0; k--) {
        Cfg.Block b = cfg.blocks.get(k);
        BitSet out = new BitSet();
        for (Cfg.Block s : b.succs) out.or(in[s.id]);
        BitSet live = (BitSet) out.clone();
        live.andNot(def[k]);
        live.or(use[k]);
        // A handler may run after any instruction of a covered block, before that block's definitions.
        for (int h = handlers[k].nextSetBit(0); h >= 0; h = handlers[k].nextSetBit(h + 1)) live.or(in[h]);
        if (!live.equals(in[k])) {
          in[k] = live;
          changed = true;
        }
      }
    }
    return in[block.id];
  }
}
