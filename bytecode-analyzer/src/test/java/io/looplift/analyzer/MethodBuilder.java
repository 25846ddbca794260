package io.looplift.analyzer;

import java.lang.reflect.InvocationTargetException;
import java.util.HashMap;
import java.util.Map;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * A fluent builder of one static method {@code f} in a class of its own, for analyzer tests: add
 * instructions, then analyze the method ({@link #context}) or run it ({@link #run}). Labels are named by
 * strings. Frames and maxima are computed.
 */
final class MethodBuilder {
  private static final String OWNER = "Built";

  private final String desc;
  private final InsnList insns = new InsnList();
  private final Map<String, LabelNode> labels = new HashMap<>();
  private byte[] bytes;

  private MethodBuilder(String desc) {
    this.desc = desc;
  }

  /** A builder of {@code static f} with method descriptor {@code desc}. */
  static MethodBuilder method(String desc) {
    return new MethodBuilder(desc);
  }

  MethodBuilder insn(int opcode) {
    insns.add(new InsnNode(opcode));
    return this;
  }

  MethodBuilder var(int opcode, int var) {
    insns.add(new VarInsnNode(opcode, var));
    return this;
  }

  MethodBuilder jump(int opcode, String label) {
    insns.add(new JumpInsnNode(opcode, labelNode(label)));
    return this;
  }

  /** Adds emitted instructions (their labels then belong to this method). */
  MethodBuilder insns(InsnList emitted) {
    insns.add(emitted);
    return this;
  }

  MethodBuilder label(String label) {
    insns.add(labelNode(label));
    return this;
  }

  /** The analysis context of {@code f}, read back from the class file as {@link ClassRewriter} reads it. */
  MethodContext context() {
    ClassNode cn = new ClassNode();
    new ClassReader(bytes()).accept(cn, ClassReader.SKIP_FRAMES);
    return new MethodContext(cn, cn.methods.get(0), new ClassHierarchy(null, cn));
  }

  /** Runs {@code f} on {@code args} in a class loader of its own and returns its result. */
  Object run(Object... args) throws Throwable {
    byte[] b = bytes();
    Class<?> c = new ClassLoader(MethodBuilder.class.getClassLoader()) {
      Class<?> define() { return defineClass(OWNER, b, 0, b.length); }
    }.define();
    for (var m : c.getDeclaredMethods()) {
      if (m.getName().equals("f")) {
        try {
          return m.invoke(null, args);
        } catch (InvocationTargetException e) {
          throw e.getCause();
        }
      }
    }
    throw new AssertionError("no method f");
  }

  private LabelNode labelNode(String name) {
    return labels.computeIfAbsent(name, k -> new LabelNode());
  }

  // Written once: the labels of the instruction list belong to the first class writer that sees them.
  private byte[] bytes() {
    if (bytes == null) {
      ClassNode cn = new ClassNode();
      cn.visit(Opcodes.V11, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, OWNER, null, "java/lang/Object", null);
      MethodNode mn = new MethodNode(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "f", desc, null, null);
      mn.instructions = insns;
      cn.methods.add(mn);
      ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES);
      cn.accept(cw);
      bytes = cw.toByteArray();
    }
    return bytes;
  }
}
