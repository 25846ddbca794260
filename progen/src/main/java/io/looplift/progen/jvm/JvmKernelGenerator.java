package io.looplift.progen.jvm;

import static org.objectweb.asm.Opcodes.ACC_FINAL;
import static org.objectweb.asm.Opcodes.ACC_PUBLIC;
import static org.objectweb.asm.Opcodes.ACC_SUPER;
import static org.objectweb.asm.Opcodes.ALOAD;
import static org.objectweb.asm.Opcodes.GOTO;
import static org.objectweb.asm.Opcodes.I2L;
import static org.objectweb.asm.Opcodes.ICONST_1;
import static org.objectweb.asm.Opcodes.IFGT;
import static org.objectweb.asm.Opcodes.IF_ICMPGE;
import static org.objectweb.asm.Opcodes.IF_ICMPNE;
import static org.objectweb.asm.Opcodes.ILOAD;
import static org.objectweb.asm.Opcodes.INVOKESPECIAL;
import static org.objectweb.asm.Opcodes.INVOKESTATIC;
import static org.objectweb.asm.Opcodes.LADD;
import static org.objectweb.asm.Opcodes.LCMP;
import static org.objectweb.asm.Opcodes.RETURN;
import static org.objectweb.asm.Opcodes.V17;

import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Reduction;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;

/**
 * Compiles a {@link LoopTemplate} to a class implementing {@link JvmKernel}. Every node is computed with the
 * instruction (or JDK method) javac uses for the same Java expression, so results are bit-identical to
 * the original loop by construction. The class has two loop methods: a unit-stride counted loop
 * {@code for (int i = lo; i < hi; i++)} shaped for C2's vectorizer, and a general strided loop; {@code run}
 * picks one per call. Stateless and thread-safe.
 */
public final class JvmKernelGenerator {
  private static final String KERNEL = "io/looplift/progen/jvm/JvmKernel";
  private static final String RUN_DESC = "([Ljava/lang/Object;[J[JIIII)V";

  private JvmKernelGenerator() {}

  /**
   * Generates the kernel class.
   *
   * @param t the template; every Call must name a public static method visible from the class's loader
   * @param internalClassName the class's internal name, e.g. {@code io/looplift/executors/jvm/Kernel1}
   * @param splitReductions compute reductions as {@code acc = op.combine(acc, element)}, with four
   *     interleaved partial accumulators for floating-point sums and products; only for templates where
   *     {@link LoopTemplate#isParallel isParallel(true)} holds
   * @return the class file bytes (Java 17), a public final class with a public no-arg constructor
   * @throws IllegalArgumentException when {@code splitReductions} is set for a template that cannot split
   */
  public static byte[] generate(LoopTemplate t, String internalClassName, boolean splitReductions) {
    if (splitReductions && !t.isParallel(true)) {
      throw new IllegalArgumentException("reductions of this template cannot be split");
    }
    for (Reduction r : t.reductions()) {
      if (r.acc() < 0 || r.acc() >= t.accumulators().size() || t.accumulators().get(r.acc()) != r.type()) {
        throw new IllegalArgumentException("reduction over accumulator " + r.acc() + " does not match the template");
      }
    }
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES) {
      // Only reference types merged in these methods are arrays held in distinct locals; never load a class.
      @Override
      protected String getCommonSuperClass(String type1, String type2) {
        return "java/lang/Object";
      }
    };
    cw.visit(V17, ACC_PUBLIC | ACC_FINAL | ACC_SUPER, internalClassName, null, "java/lang/Object", new String[] {KERNEL});
    emitConstructor(cw);
    emitRun(cw, internalClassName);
    new LoopMethod(t, splitReductions, true).emit(cw, "unit", RUN_DESC);
    new LoopMethod(t, splitReductions, false).emit(cw, "strided", RUN_DESC);
    cw.visitEnd();
    return cw.toByteArray();
  }

  private static void emitConstructor(ClassWriter cw) {
    MethodVisitor mv = cw.visitMethod(ACC_PUBLIC, "<init>", "()V", null, null);
    mv.visitCode();
    mv.visitVarInsn(ALOAD, 0);
    mv.visitMethodInsn(INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
    mv.visitInsn(RETURN);
    mv.visitMaxs(0, 0);
    mv.visitEnd();
  }

  /**
   * {@code run}: returns at once for an empty range; takes the unit-stride loop when {@code step == 1} and
   * {@code start + kTo} does not overflow (so {@code i < hi} is the exact exit test), else the strided one.
   */
  private static void emitRun(ClassWriter cw, String owner) {
    MethodVisitor mv = cw.visitMethod(ACC_PUBLIC, "run", RUN_DESC, null, null);
    mv.visitCode();
    Label done = new Label();
    Label strided = new Label();
    mv.visitVarInsn(ILOAD, 6);
    mv.visitVarInsn(ILOAD, 7);
    mv.visitJumpInsn(IF_ICMPGE, done);
    mv.visitVarInsn(ILOAD, 5);
    mv.visitInsn(ICONST_1);
    mv.visitJumpInsn(IF_ICMPNE, strided);
    mv.visitVarInsn(ILOAD, 4);
    mv.visitInsn(I2L);
    mv.visitVarInsn(ILOAD, 7);
    mv.visitInsn(I2L);
    mv.visitInsn(LADD);
    mv.visitLdcInsn((long) Integer.MAX_VALUE);
    mv.visitInsn(LCMP);
    mv.visitJumpInsn(IFGT, strided);
    forward(mv, owner, "unit");
    mv.visitJumpInsn(GOTO, done);
    mv.visitLabel(strided);
    forward(mv, owner, "strided");
    mv.visitLabel(done);
    mv.visitInsn(RETURN);
    mv.visitMaxs(0, 0);
    mv.visitEnd();
  }

  private static void forward(MethodVisitor mv, String owner, String name) {
    for (int slot = 1; slot <= 3; slot++) mv.visitVarInsn(ALOAD, slot);
    for (int slot = 4; slot <= 7; slot++) mv.visitVarInsn(ILOAD, slot);
    mv.visitMethodInsn(INVOKESTATIC, owner, name, RUN_DESC, false);
  }
}
