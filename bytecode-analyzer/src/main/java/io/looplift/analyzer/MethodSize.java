package io.looplift.analyzer;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;

/**
 * The size of a method's bytecode, against the largest method HotSpot compiles: a method with more than
 * {@link #HUGE_METHOD_LIMIT} bytes of bytecode runs in the interpreter for good (the JVM's
 * {@code DontCompileHugeMethods}, on by default). A rewrite must never push a method past it.
 */
final class MethodSize {
  /** HotSpot's {@code -XX:HugeMethodLimit}, in bytes of bytecode. */
  static final int HUGE_METHOD_LIMIT = 8000;

  private MethodSize() {}

  /** True when {@code mn}'s code is at most the limit long in a class file whose constant pool is {@code pool}'s. */
  static boolean withinLimit(MethodNode mn, ClassReader pool) {
    return surelyWithinLimit(mn) || of(mn, pool) <= HUGE_METHOD_LIMIT;
  }

  /**
   * True when an upper bound of each instruction's length keeps {@code mn} within the limit, which spares
   * most methods writing them out (and copying their class's constant pool) to measure them.
   */
  private static boolean surelyWithinLimit(MethodNode mn) {
    long bound = 0;
    for (AbstractInsnNode in : mn.instructions) {
      if (in instanceof TableSwitchInsnNode t) bound += 16 + 4L * t.labels.size();
      else if (in instanceof LookupSwitchInsnNode l) bound += 12 + 8L * l.labels.size();
      else if (in.getOpcode() >= 0) bound += 6; // the longest: wide iinc; labels, lines and frames take none
    }
    return bound <= HUGE_METHOD_LIMIT;
  }

  /**
   * The length in bytes of {@code mn}'s code in a class file whose constant pool is {@code pool}'s (an
   * {@code ldc} takes a byte more for a constant past the 256th).
   */
  static int of(MethodNode mn, ClassReader pool) {
    if (mn.instructions.size() == 0) return 0;
    ClassWriter cw = new ClassWriter(pool, 0);
    Label end = new Label();
    mn.accept(new MethodVisitor(Opcodes.ASM9, cw.visitMethod(mn.access, mn.name, mn.desc, null, null)) {
      @Override
      public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) {
        // Frames take no bytes of code; dropped, they need not agree with the writer's settings.
      }

      @Override
      public void visitMaxs(int maxStack, int maxLocals) {
        super.visitLabel(end); // after the last instruction: its offset is the code's length
        super.visitMaxs(maxStack, maxLocals);
      }
    });
    return end.getOffset();
  }

  /**
   * Those of {@code methods} (name and descriptor) whose code in class file {@code classfile} is past the
   * limit, read from their Code attributes' lengths.
   */
  static List<String> pastLimit(byte[] classfile, Collection<String> methods) {
    int[] cp = ClassFileBytes.constantPool(classfile);
    int p = ClassFileBytes.methodsAt(classfile, ClassFileBytes.fieldsAt(classfile, cp[cp.length - 1]));
    int count = ClassFileBytes.u2(classfile, p);
    p += 2;
    List<String> past = new ArrayList<>();
    for (int m = 0; m < count; m++) {
      int code = ClassFileBytes.codeAt(classfile, cp, p);
      if (code >= 0 && ClassFileBytes.u4(classfile, code + 10) > HUGE_METHOD_LIMIT) {
        // Names are decoded only for the few methods past the limit.
        String key = ClassFileBytes.utf8(classfile, cp[ClassFileBytes.u2(classfile, p + 2)])
            + ClassFileBytes.utf8(classfile, cp[ClassFileBytes.u2(classfile, p + 4)]);
        if (methods.contains(key)) past.add(key);
      }
      p = ClassFileBytes.skipAttributes(classfile, p + 6);
    }
    return past;
  }
}
