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
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.Frame;
import org.objectweb.asm.tree.analysis.Interpreter;

/**
 * The state of one control-flow path through a loop body: the locals and operand stack that ASM's
 * {@link Frame} moves, the path condition (under which the path is taken in an iteration), the array
 * memory (the elements the current segment has stored so far on this path, with the values a later load of
 * them sees) and the segment's epoch (see {@link io.looplift.ir.Stmt} and {@link Load#epoch()}). Array loads
 * and stores go through the memory, so a load of an element stored earlier in the same segment yields the
 * stored value; static calls, and the calls on {@code this} that may be inlined, go through the frame so
 * that an inlined helper continues the caller's path;
 * every other instruction is ASM's. A new frame's locals are {@link SymValue#UNKNOWN}. Executes only with a
 * {@link SymInterpreter}.
 */
final class SymFrame extends Frame<SymValue> {
  // Set by the constructor and init, not by initializers: init may run before them.
  private Node condition;
  private Map<Element, Node> memory;
  private int epoch;

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
    epoch = f.epoch;
    return this;
  }

  /** The condition under which this path is taken, a boolean IR node. */
  Node condition() { return condition; }

  /** The epoch of the segment this path is in. */
  int epoch() { return epoch; }

  /**
   * Starts a new segment on this path, in {@code epoch}: every earlier store has happened, so later loads
   * read the arrays rather than a remembered value.
   */
  void startSegment(int epoch) {
    this.epoch = epoch;
    memory.clear();
  }

  /** Makes this path continue with {@code cond} as its condition: the path of a loop's body starts anew. */
  void setCondition(Node cond) {
    condition = cond;
  }

  /** Continues this path where inlined helper code left it: {@code from}'s condition, memory and epoch. */
  void continueFrom(SymFrame from) {
    condition = from.condition;
    memory = new LinkedHashMap<>(from.memory);
    epoch = from.epoch;
  }

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
        push(stored != null ? SymValue.primitive(stored, null) : sym.load(e, epoch));
      }
      case Opcodes.IASTORE, Opcodes.LASTORE, Opcodes.FASTORE, Opcodes.DASTORE, Opcodes.BASTORE, Opcodes.CASTORE,
          Opcodes.SASTORE -> {
        SymValue value = pop();
        SymValue index = pop();
        Element e = sym.store(insn, pop(), index, value, condition, epoch);
        memory.put(e, sym.stored(e, value));
      }
      case Opcodes.INVOKESTATIC -> {
        MethodInsnNode mi = (MethodInsnNode) insn;
        Type[] params = Type.getArgumentTypes(mi.desc);
        List<SymValue> args = new ArrayList<>();
        for (int k = 0; k < params.length; k++) args.add(0, pop());
        SymValue result = sym.invoke(mi, args, this);
        if (Type.getReturnType(mi.desc).getSort() != Type.VOID) push(result);
      }
      case Opcodes.INVOKEVIRTUAL, Opcodes.INVOKESPECIAL, Opcodes.INVOKEINTERFACE -> {
        MethodInsnNode mi = (MethodInsnNode) insn;
        Type[] params = Type.getArgumentTypes(mi.desc);
        List<SymValue> args = new ArrayList<>();
        for (int k = 0; k < params.length; k++) args.add(0, pop());
        SymValue result = sym.invokeInstance(mi, pop(), args, this);
        if (Type.getReturnType(mi.desc).getSort() != Type.VOID) push(result);
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
    out.epoch = first.epoch;
    for (SymFrame f : in) {
      // A path that ran an inner loop is in another segment: the join starts one, reading memory anew.
      if (f.epoch != first.epoch) {
        out.startSegment(sym.newEpoch());
        return out;
      }
    }
    Map<Element, Node> union = new LinkedHashMap<>();
    for (SymFrame f : in) f.memory.forEach(union::putIfAbsent);
    for (Element e : union.keySet()) {
      List<Node> values = new ArrayList<>();
      for (SymFrame f : in) {
        Node v = f.memory.get(e);
        values.add(v != null ? v : sym.n(new Load(e.slot(), e.elementType(), e.index(), e.row(), out.epoch)));
      }
      out.memory.put(e, sym.select(conds, values));
    }
    return out;
  }
}
