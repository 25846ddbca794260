package io.looplift.analyzer;

import java.util.BitSet;
import java.util.List;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.LocalVariableNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicInterpreter;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.Frame;

/** A method under analysis with what every pass needs: its instructions, CFG, value types and class. */
final class MethodContext {
  final ClassNode owner;
  final MethodNode method;
  final AbstractInsnNode[] insns;
  final Cfg cfg;
  final Frame<BasicValue>[] frames;
  final ClassHierarchy hierarchy;
  private List<Cfg.Loop> loops;

  MethodContext(ClassNode owner, MethodNode method, ClassHierarchy hierarchy) {
    this.owner = owner;
    this.method = method;
    this.hierarchy = hierarchy;
    this.cfg = new Cfg(method);
    this.insns = cfg.insns;
    try {
      this.frames = new Analyzer<>(new ArrayTypes()).analyze(owner.name, method);
    } catch (AnalyzerException e) {
      throw new Rejection("the method's bytecode could not be analyzed: " + e.getMessage());
    }
  }

  /** The method's natural loops (computed once). */
  List<Cfg.Loop> loops() {
    if (loops == null) loops = cfg.loops();
    return loops;
  }

  /** Method {@code other} of class {@code cls}, which is this method's class or one whose code was read. */
  MethodContext forMethod(ClassNode cls, MethodNode other) {
    return new MethodContext(cls, other, hierarchy);
  }

  /** The static ({@code isStatic}) or instance method {@code name desc} that {@code cls} declares, or null. */
  static MethodNode findMethod(ClassNode cls, String name, String desc, boolean isStatic) {
    for (MethodNode mn : cls.methods) {
      if (mn.name.equals(name) && mn.desc.equals(desc) && ((mn.access & Opcodes.ACC_STATIC) != 0) == isStatic) {
        return mn;
      }
    }
    return null;
  }

  /** Whether local 0 holds {@code this} wherever it is read: an instance method that never stores to it. */
  boolean localZeroIsThis() {
    if ((method.access & Opcodes.ACC_STATIC) != 0) return false;
    for (AbstractInsnNode in : insns) {
      if (in instanceof VarInsnNode v && v.var == 0 && v.getOpcode() == Opcodes.ASTORE) return false;
    }
    return true;
  }

  boolean tryCatchBlocksEmpty() { return method.tryCatchBlocks.isEmpty(); }

  /** The locals some instruction of {@code loop} writes. */
  BitSet writtenLocals(Cfg.Loop loop) {
    BitSet w = new BitSet();
    for (Cfg.Block b : cfg.blocks) {
      if (!loop.contains(b)) continue;
      for (int k = b.start; k < b.end; k++) {
        AbstractInsnNode in = insns[k];
        if (in instanceof IincInsnNode ii) w.set(ii.var);
        else if (in instanceof VarInsnNode v && v.getOpcode() >= Opcodes.ISTORE && v.getOpcode() <= Opcodes.ASTORE) w.set(v.var);
      }
    }
    return w;
  }

  /** The source name of local {@code k} ({@code #k} without debug information). */
  String localName(int k) {
    if (method.localVariables != null) {
      for (LocalVariableNode lv : method.localVariables) {
        if (lv.index == k) return lv.name;
      }
    }
    return "#" + k;
  }

  /**
   * The block the head of {@code loop} exits to: the head must be the loop's only way out.
   *
   * @param which how reasons name the loop: "" for the loop being offloaded, "an inner loop " otherwise
   */
  Cfg.Block exitOf(Cfg.Loop loop, String which) {
    Cfg.Block exit = null;
    for (Cfg.Block b : cfg.blocks) {
      if (!loop.contains(b)) continue;
      for (Cfg.Block s : b.succs) {
        if (loop.contains(s)) continue;
        if (b != loop.header || exit != null) {
          throw new Rejection((which.isEmpty() ? "has an early exit" : "has " + which + "with an early exit")
              + " (break, return or a second exit test)");
        }
        exit = s;
      }
    }
    if (exit == null) throw new Rejection(which.isEmpty() ? "never exits through its loop test" : "has " + which + "that never exits through its test");
    return exit;
  }

  /** BasicInterpreter that keeps exact array types, so {@code baload} on byte[] and boolean[] differ. */
  static final class ArrayTypes extends BasicInterpreter {
    ArrayTypes() { super(Opcodes.ASM9); }

    @Override
    public BasicValue newValue(Type type) {
      if (type != null && type.getSort() == Type.ARRAY) return new BasicValue(type);
      return super.newValue(type);
    }

    @Override
    public BasicValue binaryOperation(AbstractInsnNode insn, BasicValue v1, BasicValue v2) throws AnalyzerException {
      if (insn.getOpcode() == Opcodes.AALOAD && v1.getType() != null && v1.getType().getSort() == Type.ARRAY) {
        return newValue(Type.getType(v1.getType().getDescriptor().substring(1)));
      }
      return super.binaryOperation(insn, v1, v2);
    }

    @Override
    public BasicValue merge(BasicValue v, BasicValue w) {
      if (v.equals(w)) return v;
      if (v.isReference() && w.isReference()) return BasicValue.REFERENCE_VALUE;
      return super.merge(v, w);
    }
  }
}
