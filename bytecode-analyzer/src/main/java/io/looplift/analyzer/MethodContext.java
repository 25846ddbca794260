package io.looplift.analyzer;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
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

  MethodContext forMethod(MethodNode other) {
    return new MethodContext(owner, other, hierarchy);
  }

  MethodNode findMethod(String name, String desc) {
    for (MethodNode mn : owner.methods) {
      if (mn.name.equals(name) && mn.desc.equals(desc) && (mn.access & Opcodes.ACC_STATIC) != 0) return mn;
    }
    return null;
  }

  boolean tryCatchBlocksEmpty() { return method.tryCatchBlocks.isEmpty(); }

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
