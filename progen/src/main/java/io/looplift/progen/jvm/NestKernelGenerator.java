package io.looplift.progen.jvm;

import static org.objectweb.asm.Opcodes.ACC_FINAL;
import static org.objectweb.asm.Opcodes.ACC_PUBLIC;
import static org.objectweb.asm.Opcodes.ACC_SUPER;
import static org.objectweb.asm.Opcodes.ALOAD;
import static org.objectweb.asm.Opcodes.ICONST_1;
import static org.objectweb.asm.Opcodes.IF_ICMPNE;
import static org.objectweb.asm.Opcodes.ILOAD;
import static org.objectweb.asm.Opcodes.INVOKESPECIAL;
import static org.objectweb.asm.Opcodes.INVOKESTATIC;
import static org.objectweb.asm.Opcodes.RETURN;
import static org.objectweb.asm.Opcodes.V17;

import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Reduction;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;

/**
 * Compiles a loop nest {@link LoopTemplate} (one that is not {@link LoopTemplate#isFlat flat}) to a class
 * implementing {@link NestKernel}. Every node is computed with the instruction (or JDK method) javac uses for
 * the same Java expression, every segment in Java's order, so results are bit-identical to the original
 * nest; see {@link NestMethod} for the shape of the code, {@link Hoisting} for what moves out of loops and
 * {@link Jam} for the unroll-and-jam of loops carrying values. Stateless and thread-safe.
 */
public final class NestKernelGenerator {
  private static final String KERNEL = "io/looplift/progen/jvm/NestKernel";
  /**
   * HotSpot does not JIT-compile methods longer than this many bytes of bytecode; an interpreted kernel is
   * far slower than the original loop, so a jammed method that long is generated again without the jam.
   */
  private static final int MAX_METHOD_BYTES = 8000;

  private NestKernelGenerator() {}

  /**
   * Generates the kernel class.
   *
   * @param t a nest template; every Call must name a public static method visible from the class's loader
   * @param internalClassName the class's internal name, e.g. {@code io/looplift/executors/jvm/Nest1}
   * @param splitReductions compute reductions as {@code acc = op.combine(acc, element)} from whatever
   *     {@code accs} holds, so that separate ranges give partial results; only for templates where
   *     {@link LoopTemplate#isParallel isParallel(true)} holds
   * @param jam unroll and jam the loops {@link Jam} picks (results are the same either way)
   * @return the class file bytes (Java 17), a public final class with a public no-arg constructor
   * @throws IllegalArgumentException for a flat template, or {@code splitReductions} where they cannot split
   */
  public static byte[] generate(LoopTemplate t, String internalClassName, boolean splitReductions, boolean jam) {
    if (t.isFlat()) throw new IllegalArgumentException("a flat template: see JvmKernelGenerator");
    if (splitReductions && !t.isParallel(true)) {
      throw new IllegalArgumentException("reductions of this template cannot be split");
    }
    for (Reduction r : t.reductions()) {
      if (r.acc() < 0 || r.acc() >= t.accumulators().size() || t.accumulators().get(r.acc()) != r.type()) {
        throw new IllegalArgumentException("reduction over accumulator " + r.acc() + " does not match the template");
      }
    }
    return build(t, internalClassName, splitReductions, jam);
  }

  /**
   * The class; when the outermost loop is jammed, with one method for launches stepping by 1 and one for
   * any other step, so that the former addresses the instances at constant offsets.
   */
  private static byte[] build(LoopTemplate t, String internalClassName, boolean split, boolean jam) {
    NestDimension dimension = NestDimension.of(t);
    NestMethod general = new NestMethod(t, dimension, split, jam, false);
    ClassWriter cw = classWriter(internalClassName);
    int longest;
    if (general.jamsRoot()) {
      longest = Math.max(new NestMethod(t, dimension, split, jam, true).emit(cw, "unit"), general.emit(cw, "strided"));
      emitRun(cw, internalClassName, "unit", "strided");
    } else {
      longest = general.emit(cw, "nest");
      emitRun(cw, internalClassName, null, "nest");
    }
    if (longest > MAX_METHOD_BYTES && general.jams()) return build(t, internalClassName, split, false);
    cw.visitEnd();
    return cw.toByteArray();
  }

  /** A class writer with the class header and constructor already written. */
  private static ClassWriter classWriter(String internalClassName) {
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES) {
      // Only reference types merged in these methods are arrays held in distinct locals; never load a class.
      @Override
      protected String getCommonSuperClass(String type1, String type2) {
        return "java/lang/Object";
      }
    };
    cw.visit(V17, ACC_PUBLIC | ACC_FINAL | ACC_SUPER, internalClassName, null, "java/lang/Object", new String[] {KERNEL});
    MethodVisitor init = cw.visitMethod(ACC_PUBLIC, "<init>", "()V", null, null);
    init.visitCode();
    init.visitVarInsn(ALOAD, 0);
    init.visitMethodInsn(INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
    init.visitInsn(RETURN);
    init.visitMaxs(0, 0);
    init.visitEnd();
    return cw;
  }

  /**
   * {@code run}: forwards to static method {@code unit} when the step is 1, else to {@code any}; always to
   * {@code any} when {@code unit} is null.
   */
  private static void emitRun(ClassWriter cw, String owner, String unit, String any) {
    MethodVisitor run = cw.visitMethod(ACC_PUBLIC, "run", NestMethod.DESC, null, null);
    run.visitCode();
    if (unit != null) {
      Label other = new Label();
      run.visitVarInsn(ILOAD, 5);
      run.visitInsn(ICONST_1);
      run.visitJumpInsn(IF_ICMPNE, other);
      forward(run, owner, unit);
      run.visitLabel(other);
    }
    forward(run, owner, any);
    run.visitMaxs(0, 0);
    run.visitEnd();
  }

  private static void forward(MethodVisitor mv, String owner, String name) {
    for (int slot = 1; slot <= 3; slot++) mv.visitVarInsn(ALOAD, slot);
    for (int slot = 4; slot <= 8; slot++) mv.visitVarInsn(ILOAD, slot);
    mv.visitMethodInsn(INVOKESTATIC, owner, name, NestMethod.DESC, false);
    mv.visitInsn(RETURN);
  }
}
