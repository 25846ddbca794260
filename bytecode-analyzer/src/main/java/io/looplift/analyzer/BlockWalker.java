package io.looplift.analyzer;

import io.looplift.ir.Compare;
import io.looplift.ir.Cond;
import io.looplift.ir.Node;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.analysis.AnalyzerException;

/**
 * Executes an acyclic region of one method's control-flow graph symbolically, block by block in
 * topological order, so that every path of an iteration (of a loop body, or of an inlined helper) is
 * executed once: a block runs on the {@link SymFrame} of the paths that reach it, joined under their
 * path conditions; a conditional jump leaves it along two paths, each under its condition. Paths that go
 * back to the region's loop header end there and are returned; paths that return are handed to the
 * caller.
 *
 * <p>A loop nested in the region is one step of the walk: its header stands for the whole loop, which
 * {@link InnerLoop} executes (into a {@link io.looplift.ir.Loop} statement) before the walk goes on at the
 * loop's exit.
 */
final class BlockWalker {
  /** What a walk does with a path that ends at a return instruction. */
  interface Returns {
    /** Takes the path that ends at {@code insn} with {@code frame} (the returned value on its stack). */
    void at(AbstractInsnNode insn, SymFrame frame);
  }

  private final MethodContext m;
  private final SymInterpreter sym;

  /** A walker over blocks of {@code m}'s method, executing with {@code sym}. */
  BlockWalker(MethodContext m, SymInterpreter sym) {
    this.m = m;
    this.sym = sym;
  }

  /**
   * Executes the blocks of {@code region} reachable from {@code entry}, starting there with
   * {@code frame}, and returns the frames of the paths that go back to {@code header}.
   *
   * @param header the loop header whose back edges end the walk; null for a region without one
   * @throws Rejection when the region has a cycle other than through {@code header}, or for anything a
   *     block does that cannot be offloaded
   */
  List<SymFrame> walk(Cfg.Block entry, SymFrame frame, Predicate<Cfg.Block> region, Cfg.Block header,
      Returns returns) {
    Map<Cfg.Block, List<SymFrame>> incoming = new HashMap<>();
    List<SymFrame> back = new ArrayList<>();
    List<Cfg.Loop> inner = innerLoops(region, header);
    for (Cfg.Block b : Regions.topologicalOrder(m.cfg, entry, region, header, inner)) {
      SymFrame in = b == entry ? frame : SymFrame.join(incoming.get(b), sym);
      Cfg.Loop loop = headed(inner, b);
      Map<Cfg.Block, SymFrame> leaving = loop != null ? new InnerLoop(m, sym, loop).run(in) : step(b, in, returns);
      for (Map.Entry<Cfg.Block, SymFrame> out : leaving.entrySet()) {
        if (out.getKey() == header) back.add(out.getValue());
        else incoming.computeIfAbsent(out.getKey(), k -> new ArrayList<>()).add(out.getValue());
      }
    }
    return back;
  }

  /**
   * The loops of the region other than the one {@code header} heads, outermost only: the loops the walk
   * meets as single steps.
   */
  private List<Cfg.Loop> innerLoops(Predicate<Cfg.Block> region, Cfg.Block header) {
    List<Cfg.Loop> candidates = new ArrayList<>();
    for (Cfg.Loop l : m.loops()) {
      if (l.header != header && region.test(l.header)) candidates.add(l);
    }
    List<Cfg.Loop> outermost = new ArrayList<>();
    for (Cfg.Loop l : candidates) {
      boolean nested = false;
      for (Cfg.Loop other : candidates) nested |= other != l && other.contains(l.header);
      if (!nested) outermost.add(l);
    }
    return outermost;
  }

  private static Cfg.Loop headed(List<Cfg.Loop> loops, Cfg.Block b) {
    for (Cfg.Loop l : loops) {
      if (l.header == b) return l;
    }
    return null;
  }

  /** Executes block {@code b} on {@code frame}; returns the frames leaving it, by successor. */
  private Map<Cfg.Block, SymFrame> step(Cfg.Block b, SymFrame frame, Returns returns) {
    AbstractInsnNode last = execute(b, frame);
    if (last != null && isReturn(last.getOpcode())) {
      returns.at(last, frame);
      return Map.of();
    }
    return successors(b, last, frame);
  }

  /**
   * Executes the instructions of block {@code b} on {@code frame} up to its final jump or return, which
   * it returns without executing; null when the block falls through.
   */
  AbstractInsnNode execute(Cfg.Block b, SymFrame frame) {
    for (int k = b.start; k < b.end; k++) {
      AbstractInsnNode insn = m.insns[k];
      int op = insn.getOpcode();
      if (op < 0) continue; // labels, line numbers, frames
      if (insn instanceof JumpInsnNode || isReturn(op)) {
        if (k != b.end - 1) throw new IllegalStateException("jump inside a block");
        return insn;
      }
      try {
        frame.execute(insn, sym);
      } catch (AnalyzerException e) {
        throw new IllegalStateException("Error at instruction " + k + ": " + e.getMessage(), e);
      }
    }
    return null;
  }

  /** The frames leaving block {@code b}, ended by {@code last}, along each successor edge. */
  private Map<Cfg.Block, SymFrame> successors(Cfg.Block b, AbstractInsnNode last, SymFrame frame) {
    Cfg cfg = m.cfg;
    Map<Cfg.Block, SymFrame> out = new LinkedHashMap<>();
    if (last == null) {
      out.put(cfg.blockOf(b.end), frame);
      return out;
    }
    JumpInsnNode j = (JumpInsnNode) last;
    Cfg.Block target = cfg.blockOf(m.method.instructions.indexOf(j.label));
    if (j.getOpcode() == Opcodes.GOTO) {
      out.put(target, frame);
      return out;
    }
    Node c = condition(j, frame);
    SymFrame taken = frame.branch(c, sym);
    SymFrame fall = frame.branch(sym.not(c), sym);
    Cfg.Block next = cfg.blockOf(b.end);
    if (next == target) throw new Rejection("branches to the next instruction either way");
    out.put(target, taken);
    out.put(next, fall);
    return out;
  }

  /** The condition under which conditional jump {@code j} is taken; pops its operands. */
  private Node condition(JumpInsnNode j, SymFrame frame) {
    SymValue[] xy = frame.popCompared(j);
    return sym.n(Compare.of(jumpCond(j), sym.node(xy[0]), sym.node(xy[1])));
  }

  /** The relation conditional jump {@code j} tests between its operands. */
  static Cond jumpCond(JumpInsnNode j) {
    int op = j.getOpcode();
    int k = op >= Opcodes.IF_ICMPEQ ? op - Opcodes.IF_ICMPEQ : op - Opcodes.IFEQ;
    return new Cond[] {Cond.EQ, Cond.NE, Cond.LT, Cond.GE, Cond.GT, Cond.LE}[k];
  }

  private static boolean isReturn(int op) {
    return op >= Opcodes.IRETURN && op <= Opcodes.RETURN;
  }
}
