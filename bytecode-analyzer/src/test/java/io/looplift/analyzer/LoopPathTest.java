package io.looplift.analyzer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.bridge.LoopBridge;
import io.looplift.ir.LoopSite;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * A rewritten loop inside a loop that is not rewritten leaves nothing in the outer loop's path where no other
 * rewritten loop can queue work behind its own: its taken path syncs at once and its timed runs go through
 * a copy of it, so the outer loop's code is the original's and HotSpot compiles it as it would without the
 * agent once the inner loop is put back (it shapes a loop after its bytecode's branches, dead ones too).
 */
class LoopPathTest {
  @AfterEach
  void stopTiming() {
    InterpretingDispatcher.timeOriginals = false;
  }

  private static MethodNode blocks(byte[] classFile) {
    ClassNode cn = new ClassNode();
    new ClassReader(classFile).accept(cn, 0);
    return cn.methods.stream().filter(m -> m.name.equals("blocks")).findFirst().orElseThrow();
  }

  private static int conditionalJumps(List<AbstractInsnNode> insns) {
    int n = 0;
    for (AbstractInsnNode in : insns) {
      if (in instanceof JumpInsnNode && in.getOpcode() != Opcodes.GOTO) n++;
    }
    return n;
  }

  @Test
  void theOuterLoopsPathKeepsOnlyTheOriginalCode() throws Exception {
    byte[] bytes = Rewritten.classFile(InnerLoops.class);
    RecordingRegistry registry = new RecordingRegistry();
    byte[] out = new ClassRewriter(new RewriteOptions(0), registry).rewrite(bytes, getClass().getClassLoader());
    assertTrue(registry.sites.stream().anyMatch(LoopSite::accepted), "the inner loop is rewritten");
    List<AbstractInsnNode> original = new ArrayList<>();
    blocks(bytes).instructions.forEach(original::add);
    List<AbstractInsnNode> inPlace = new ArrayList<>();
    for (AbstractInsnNode in : blocks(out).instructions) {
      if (in instanceof InvokeDynamicInsnNode) break; // the preamble, after the method's own code
      inPlace.add(in);
    }
    assertEquals(conditionalJumps(original), conditionalJumps(inPlace), "no branch added to the method's own code");
    assertFalse(inPlace.stream().anyMatch(in -> in instanceof MethodInsnNode m && m.owner.equals(LoopBridge.INTERNAL_NAME)),
        "no bridge call in the method's own code");
    long syncs = 0;
    for (AbstractInsnNode in : blocks(out).instructions) {
      if (in instanceof MethodInsnNode m && m.name.equals(LoopBridge.SYNC)) syncs++;
    }
    // A method whose loops never defer work keeps no flag for it: its fallback and timed paths check nothing.
    assertEquals(1, syncs, "the taken path's sync is the method's only one");
  }

  @Test
  void offloadedAndTimedRunsGiveTheOriginalsResultsAndReportAsBefore() throws Exception {
    Rewritten inner = new Rewritten(InnerLoops.class);
    int site = inner.id(inner.site("blocks", null));
    float[] x = new float[64];
    for (int i = 0; i < x.length; i++) x[i] = i * 0.25f;
    Object[] plain = {new float[8], x.clone()};
    Object[] lifted = {new float[8], x.clone()};
    Object expected = Rewritten.invoke(inner.original, "blocks", plain);
    int syncs = InterpretingDispatcher.syncs;
    assertEquals(expected, Rewritten.invoke(inner.lifted, "blocks", lifted));
    assertArrayEquals((float[]) plain[0], (float[]) lifted[0]);
    assertEquals(8, InterpretingDispatcher.syncs - syncs, "each row's work synced at once");

    Object[] timed = {new float[8], x.clone()};
    InterpretingDispatcher.timeOriginals = true;
    int ran = InterpretingDispatcher.RAN.size();
    assertEquals(expected, Rewritten.invoke(inner.lifted, "blocks", timed));
    assertArrayEquals((float[]) plain[0], (float[]) timed[0]);
    assertEquals(List.of(site, site, site, site, site, site, site, site),
        InterpretingDispatcher.RAN.subList(ran, InterpretingDispatcher.RAN.size()), "each row's timed run reported");
  }

  /**
   * The copy of a loop whose last instruction ends the method's code stops there, before the preamble (in a
   * class file without debug information: no label for a variable's scope follows that instruction).
   */
  @Test
  void aLoopThatEndsTheMethodIsCopiedUpToItsEnd() throws Exception {
    ClassWriter stripped = new ClassWriter(0);
    new ClassReader(Rewritten.classFile(InnerLoops.class)).accept(stripped, ClassReader.SKIP_DEBUG);
    Rewritten inner = new Rewritten(InnerLoops.class, stripped.toByteArray(), 0, Implementations.NONE);
    LoopSite site = inner.site("endsTheMethod", null);
    assertTrue(site.accepted(), site.reason());
    int[] a = {4, -2, 7, 0, 9};
    int[] plain = a.clone();
    Object expected = Rewritten.invoke(inner.original, "endsTheMethod", new Object[] {plain});
    int[] timed = a.clone();
    InterpretingDispatcher.timeOriginals = true;
    int ran = InterpretingDispatcher.RAN.size();
    assertEquals(expected, Rewritten.invoke(inner.lifted, "endsTheMethod", new Object[] {timed}));
    assertArrayEquals(plain, timed);
    assertEquals(List.of(inner.id(site)), InterpretingDispatcher.RAN.subList(ran, InterpretingDispatcher.RAN.size()));
  }

  /** A timed run that throws says what the original says: a NullPointerException names the null variable. */
  @Test
  void aTimedRunThrowsWithTheOriginalsMessage() throws Exception {
    Rewritten inner = new Rewritten(InnerLoops.class);
    InterpretingDispatcher.timeOriginals = true;
    String original = messageOf(inner.original);
    assertEquals(original, messageOf(inner.lifted));
    assertTrue(original.contains("\"in\""), original);
  }

  private static String messageOf(Class<?> c) throws Exception {
    try {
      c.getMethod("plusOne", double[].class, double[].class, int.class).invoke(null, null, new double[4], 4);
    } catch (InvocationTargetException e) {
      return e.getCause().getMessage();
    }
    throw new AssertionError("plusOne did not throw");
  }
}
