package io.looplift.analyzer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.ir.LoopSite;
import io.looplift.ir.RegionSite;
import io.looplift.ir.SiteRegistry;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/** Malformed and unusual class files: the rewriter leaves them unchanged, or rewrites them correctly. */
class UnusualClassFilesTest {
  static {
    InterpretingDispatcher.install();
  }

  private final List<LoopSite> seen = new ArrayList<>();
  private final ClassRewriter rewriter = new ClassRewriter(new RewriteOptions(0), new SiteRegistry() {
    @Override
    public synchronized int register(LoopSite site) {
      seen.add(site);
      InterpretingDispatcher.SITES.add(site);
      return InterpretingDispatcher.SITES.size() - 1;
    }

    @Override
    public void discard(int siteId, String reason) {}

    @Override
    public synchronized int registerRegion(RegionSite region) {
      InterpretingDispatcher.REGIONS.add(region);
      return InterpretingDispatcher.REGIONS.size() - 1;
    }
  });

  @Test
  void malformedBytesAreLeftUnchanged() throws Exception {
    byte[] real;
    try (InputStream in = Shapes.class.getResourceAsStream("Shapes.class")) {
      real = in.readAllBytes();
    }
    assertNull(rewriter.rewrite(new byte[0], null));
    assertNull(rewriter.rewrite(new byte[] {(byte) 0xCA, (byte) 0xFE, (byte) 0xBA, (byte) 0xBE}, null));
    assertNull(rewriter.rewrite("not a class file at all".getBytes(), null));
    assertNull(rewriter.rewrite(Arrays.copyOf(real, real.length / 2), null));
    byte[] future = real.clone();
    future[6] = 0;
    future[7] = 99; // major version 99: newer than any JVM or ASM knows
    assertNull(rewriter.rewrite(future, null));
    assertTrue(ClassRewriter.analyze(new byte[] {1, 2, 3}, null).isEmpty());
  }

  @Test
  void alreadyRewrittenClassesAreNotRewrittenAgain() throws Exception {
    byte[] real;
    try (InputStream in = Shapes.class.getResourceAsStream("Shapes.class")) {
      real = in.readAllBytes();
    }
    byte[] once = rewriter.rewrite(real, Shapes.class.getClassLoader());
    assertNotNull(once);
    assertNull(rewriter.rewrite(once, Shapes.class.getClassLoader()));
  }

  @Test
  void javaOnePointOneClassWithALoopIsRewrittenAndRuns() throws Exception {
    byte[] bytes = doubler(Opcodes.V1_1, "Old11");
    byte[] out = rewriter.rewrite(bytes, null);
    assertNotNull(out, "a 1.1 class file with a plain loop is rewritten (no stack map frames needed)");
    assertEquals(45, ((out[6] & 0xFF) << 8) | (out[7] & 0xFF), "the class file version is kept");
    int before = InterpretingDispatcher.submitted;
    int[] a = {1, 2, 3, 4, 5};
    int[] b = new int[5];
    invoke(define("Old11", out), a, b);
    assertArrayEquals(new int[] {2, 4, 6, 8, 10}, b);
    assertTrue(InterpretingDispatcher.submitted > before, "the loop went through the bridge");
  }

  /**
   * A Java 1.4 class file cannot name a class with {@code ldc}: the guard that a call on an object runs the
   * inlined method names its class with a string, and a helper whose class needs initializing keeps its loop
   * as it is. Both classes verify, load and compute what they did.
   */
  @Test
  void javaOnePointFourLoopsWithGuardedCallsVerifyAndRun() throws Exception {
    ClassLoader loader = UnusualClassFilesTest.class.getClassLoader();
    byte[] out = rewriter.rewrite(callingLoop("Old14Gather", Opcodes.INVOKEVIRTUAL, VEC, "get", "(I)D"), loader);
    assertNotNull(out, "the loop calling Vec.get is rewritten");
    Method gather = define("Old14Gather", out).getMethod("run", HelperShapes.Vec.class, double[].class);
    double[] data = {1, 2, 3, 4};
    for (HelperShapes.Vec v : List.of(new HelperShapes.Vec(data), new HelperShapes.NegatedVec(data))) {
      int before = InterpretingDispatcher.submitted;
      double[] got = new double[4];
      gather.invoke(null, v, got);
      double sign = v instanceof HelperShapes.NegatedVec ? -3 : 3;
      assertArrayEquals(new double[] {sign, 2 * sign, 3 * sign, 4 * sign}, got);
      assertEquals(v instanceof HelperShapes.NegatedVec, InterpretingDispatcher.submitted == before, v.getClass().getName());
    }
    seen.clear();
    byte[] tables = callingLoop("Old14Weigh", Opcodes.INVOKESTATIC, "io/looplift/analyzer/HelperTables", "weigh", "(D)D");
    byte[] kept = rewriter.rewrite(tables, loader);
    assertTrue(seen.stream().anyMatch(site -> !site.accepted() && site.reason().contains("older than Java 5")), seen::toString);
    Method weigh = define("Old14Weigh", kept != null ? kept : tables).getMethod("run", HelperShapes.Vec.class, double[].class);
    double[] got = new double[2];
    weigh.invoke(null, null, got);
    assertArrayEquals(new double[] {HelperTables.weigh(0), HelperTables.weigh(1)}, got);
  }

  private static final String VEC = "io/looplift/analyzer/HelperShapes$Vec";

  /**
   * A Java 1.4 class {@code name} with {@code static void run(Vec v, double[] out)}: {@code for (i < out.length)
   * out[i] = call(i)}, the call {@code v.method((int) i)} for {@code invokevirtual}, else
   * {@code owner.method((double) i)}.
   */
  private static byte[] callingLoop(String name, int invoke, String owner, String method, String desc) {
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
    Label head = new Label();
    Label exit = new Label();
    MethodVisitor mv = loopHead(cw, Opcodes.V1_4, name, "(L" + VEC + ";[D)V", 1, head, exit);
    mv.visitVarInsn(Opcodes.ALOAD, 1);
    mv.visitVarInsn(Opcodes.ILOAD, 2);
    if (invoke == Opcodes.INVOKEVIRTUAL) {
      mv.visitVarInsn(Opcodes.ALOAD, 0);
      mv.visitVarInsn(Opcodes.ILOAD, 2);
      mv.visitMethodInsn(invoke, owner, method, desc, false);
      mv.visitLdcInsn(3.0);
      mv.visitInsn(Opcodes.DMUL);
    } else {
      mv.visitVarInsn(Opcodes.ILOAD, 2);
      mv.visitInsn(Opcodes.I2D);
      mv.visitMethodInsn(invoke, owner, method, desc, false);
    }
    mv.visitInsn(Opcodes.DASTORE);
    return loopTail(cw, mv, head, exit);
  }

  @Test
  void methodsWithSubroutinesAreLeftAloneAndStillRun() throws Exception {
    byte[] bytes = withSubroutine("Jsr14");
    byte[] out = rewriter.rewrite(bytes, null);
    byte[] run = out != null ? out : bytes;
    int[] a = {1, 2, 3};
    int[] b = new int[3];
    invoke(define("Jsr14", run), a, b);
    assertArrayEquals(new int[] {3, 3, 3}, b); // a jsr to a subroutine that stores 3 in each iteration
  }

  private static Object invoke(Class<?> c, int[] a, int[] b) throws Exception {
    Method m = c.getMethod("run", int[].class, int[].class);
    return m.invoke(null, a, b);
  }

  private static Class<?> define(String name, byte[] bytes) {
    return new ClassLoader(UnusualClassFilesTest.class.getClassLoader()) {
      Class<?> define() { return defineClass(name, bytes, 0, bytes.length); }
    }.define();
  }

  /**
   * Starts class {@code name} with {@code static void run} of two arguments, {@code desc}: {@code i = 0; head:
   * if (i >= arg.length) goto exit}, {@code arg} the argument in local {@code lengthOf}.
   */
  private static MethodVisitor loopHead(ClassWriter cw, int version, String name, String desc, int lengthOf,
      Label head, Label exit) {
    cw.visit(version, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, name, null, "java/lang/Object", null);
    MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "run", desc, null, null);
    mv.visitCode();
    mv.visitInsn(Opcodes.ICONST_0);
    mv.visitVarInsn(Opcodes.ISTORE, 2);
    mv.visitLabel(head);
    mv.visitVarInsn(Opcodes.ILOAD, 2);
    mv.visitVarInsn(Opcodes.ALOAD, lengthOf);
    mv.visitInsn(Opcodes.ARRAYLENGTH);
    mv.visitJumpInsn(Opcodes.IF_ICMPGE, exit);
    return mv;
  }

  /** {@code static void run(int[] a, int[] b) { for (int i = 0; i < a.length; i++) b[i] = a[i] * 2; }} */
  private static byte[] doubler(int version, String name) {
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
    Label head = new Label();
    Label exit = new Label();
    MethodVisitor mv = loopHead(cw, version, name, "([I[I)V", 0, head, exit);
    mv.visitVarInsn(Opcodes.ALOAD, 1);
    mv.visitVarInsn(Opcodes.ILOAD, 2);
    mv.visitVarInsn(Opcodes.ALOAD, 0);
    mv.visitVarInsn(Opcodes.ILOAD, 2);
    mv.visitInsn(Opcodes.IALOAD);
    mv.visitInsn(Opcodes.ICONST_2);
    mv.visitInsn(Opcodes.IMUL);
    mv.visitInsn(Opcodes.IASTORE);
    return loopTail(cw, mv, head, exit);
  }

  /** Ends the loop {@link #loopHead} started: {@code i++; goto head; exit: return}; returns the class file. */
  private static byte[] loopTail(ClassWriter cw, MethodVisitor mv, Label head, Label exit) {
    mv.visitIincInsn(2, 1);
    mv.visitJumpInsn(Opcodes.GOTO, head);
    mv.visitLabel(exit);
    mv.visitInsn(Opcodes.RETURN);
    mv.visitMaxs(0, 0);
    mv.visitEnd();
    cw.visitEnd();
    return cw.toByteArray();
  }

  /** A loop whose body calls a jsr subroutine (as javac 1.4 compiled finally blocks) storing 3 into b[i]. */
  private static byte[] withSubroutine(String name) {
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
    Label head = new Label();
    Label exit = new Label();
    Label sub = new Label();
    MethodVisitor mv = loopHead(cw, Opcodes.V1_4, name, "([I[I)V", 0, head, exit);
    mv.visitJumpInsn(Opcodes.JSR, sub);
    mv.visitIincInsn(2, 1);
    mv.visitJumpInsn(Opcodes.GOTO, head);
    mv.visitLabel(sub);
    mv.visitVarInsn(Opcodes.ASTORE, 3);
    mv.visitVarInsn(Opcodes.ALOAD, 1);
    mv.visitVarInsn(Opcodes.ILOAD, 2);
    mv.visitInsn(Opcodes.ICONST_3);
    mv.visitInsn(Opcodes.IASTORE);
    mv.visitVarInsn(Opcodes.RET, 3);
    mv.visitLabel(exit);
    mv.visitInsn(Opcodes.RETURN);
    mv.visitMaxs(0, 0);
    mv.visitEnd();
    cw.visitEnd();
    return cw.toByteArray();
  }
}
