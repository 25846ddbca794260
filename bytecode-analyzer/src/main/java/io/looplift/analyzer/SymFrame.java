package io.looplift.analyzer;

import io.looplift.analyzer.LoopBody.Element;
import io.looplift.ir.Const;
import io.looplift.ir.Load;
import io.looplift.ir.Node;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.Frame;
import org.objectweb.asm.tree.analysis.Interpreter;

/**
 * The state of one control-flow path through a loop body: the locals and operand stack that ASM's
 * {@link Frame} moves, the path condition (under which the path is taken in an iteration), and the array
 * memory (the elements the iteration has stored so far on this path, with the values a later load of
 * them sees). Array loads and stores go through the memory, so a load of an element stored earlier in the
 * same iteration yields the stored value; every other instruction is ASM's. A new frame's locals are
 * {@link SymValue#UNKNOWN}. Executes only with a {@link SymInterpreter}.
 */
final class SymFrame extends Frame<SymValue> {
  // Set by the constructor and init, not by initializers: init may run before them.
  private Node condition;
  private Map<Element, Node> memory;

  SymFrame(int numLocals, int maxStack) {
    super(numLocals, maxStack);
    for (int k = 0; k < numLocals; k++) setLocal(k, SymValue.UNKNOWN);
    condition = Const.TRUE;
    memory = new LinkedHashMap<>();
  }

  /** A copy of this frame, to be changed independently: same locals, stack, condition and memory. */
  SymFrame copy() {
    SymFrame c = new SymFrame(getLocals(), getMaxStackSize());
    c.init(this);
    return c;
  }

  /** Copies {@code frame}, which must be a {@link SymFrame}, into this frame. */
  @Override
  public Frame<SymValue> init(Frame<? extends SymValue> frame) {
    super.init(frame);
    SymFrame f = (SymFrame) frame;
    condition = f.condition;
    memory = new LinkedHashMap<>(f.memory);
    return this;
  }

  /** The condition under which this path is taken, a boolean IR node. */
  Node condition() { return condition; }

  /** A copy of this frame for the path that goes on where {@code cond} holds. */
  SymFrame branch(Node cond, SymInterpreter sym) {
    SymFrame b = copy();
    b.condition = sym.and(condition, cond);
    return b;
  }

  /**
   * Executes {@code insn}, which must not be a jump or a return; {@code interpreter} must be a
   * {@link SymInterpreter}.
   */
  @Override
  public void execute(AbstractInsnNode insn, Interpreter<SymValue> interpreter) throws AnalyzerException {
    SymInterpreter sym = (SymInterpreter) interpreter;
    switch (insn.getOpcode()) {
      case Opcodes.IALOAD, Opcodes.LALOAD, Opcodes.FALOAD, Opcodes.DALOAD, Opcodes.BALOAD, Opcodes.CALOAD,
          Opcodes.SALOAD -> {
        SymValue index = pop();
        Element e = sym.element(insn, pop(), index);
        Node stored = memory.get(e);
        push(stored != null ? SymValue.primitive(stored, null) : sym.load(e));
      }
      case Opcodes.IASTORE, Opcodes.LASTORE, Opcodes.FASTORE, Opcodes.DASTORE, Opcodes.BASTORE, Opcodes.CASTORE,
          Opcodes.SASTORE -> {
        SymValue value = pop();
        SymValue index = pop();
        Element e = sym.store(insn, pop(), index, value, condition);
        memory.put(e, sym.stored(e, value));
      }
      // ASM's Frame executes ret without asking the interpreter.
      case Opcodes.RET -> throw new Rejection("uses subroutines (jsr/ret)");
      default -> super.execute(insn, interpreter);
    }
  }

  /**
   * Pops the two values conditional jump {@code j} compares; for the single-operand jumps ({@code ifeq}...)
   * the right one is the constant 0 they compare with.
   *
   * @throws Rejection for jumps that compare references
   */
  SymValue[] popCompared(JumpInsnNode j) {
    int op = j.getOpcode();
    if (op >= Opcodes.IF_ICMPEQ && op <= Opcodes.IF_ICMPLE) {
      SymValue y = pop();
      SymValue x = pop();
      return new SymValue[] {x, y};
    }
    if (op >= Opcodes.IFEQ && op <= Opcodes.IFLE) {
      SymValue x = pop();
      return new SymValue[] {x, SymValue.primitive(Const.ofInt(0), List.of(new InsnNode(Opcodes.ICONST_0)))};
    }
    throw new Rejection("compares object references");
  }

  /** True when this frame and {@code other} hold equal values in every local. */
  boolean sameLocals(SymFrame other) {
    for (int k = 0; k < getLocals(); k++) {
      if (!getLocal(k).equals(other.getLocal(k))) return false;
    }
    return true;
  }

  /**
   * The frame where the mutually exclusive paths of {@code in} join (frames of one method): taken when any
   * of them is, each local, stack value and stored element a select of the paths' values under their
   * conditions. An element stored on some paths only keeps, on the others, the array's value.
   *
   * @throws Rejection when the paths arrive with different stack heights, or with stack values that
   *     cannot be selected between
   */
  static SymFrame join(List<SymFrame> in, SymInterpreter sym) {
    if (in.size() == 1) return in.get(0);
    SymFrame first = in.get(0);
    SymFrame out = new SymFrame(first.getLocals(), first.getMaxStackSize());
    List<Node> conds = new ArrayList<>();
    for (SymFrame f : in) conds.add(f.condition);
    out.condition = first.condition;
    for (int k = 1; k < in.size(); k++) out.condition = sym.or(out.condition, in.get(k).condition);
    for (int j = 0; j < first.getLocals(); j++) {
      List<SymValue> values = new ArrayList<>();
      for (SymFrame f : in) values.add(f.getLocal(j));
      out.setLocal(j, sym.merge(conds, values, false));
    }
    int depth = first.getStackSize();
    for (SymFrame f : in) {
      if (f.getStackSize() != depth) throw new Rejection("unbalanced operand stack at a join");
    }
    for (int d = 0; d < depth; d++) {
      List<SymValue> values = new ArrayList<>();
      for (SymFrame f : in) values.add(f.getStack(d));
      out.push(sym.merge(conds, values, true));
    }
    Map<Element, Node> union = new LinkedHashMap<>();
    for (SymFrame f : in) f.memory.forEach(union::putIfAbsent);
    for (Element e : union.keySet()) {
      List<Node> values = new ArrayList<>();
      for (SymFrame f : in) {
        Node v = f.memory.get(e);
        values.add(v != null ? v : sym.n(new Load(e.slot(), e.elementType(), e.index())));
      }
      out.memory.put(e, sym.select(conds, values));
    }
    return out;
  }
}
