package io.looplift.analyzer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.bridge.LoopBridge;
import io.looplift.ir.LoopSite;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * A loop whose runs are all shorter than {@code min.length} counts them through the bridge, which tells
 * the pipeline once, with the loop's class; rewriting a class again leaves the loops the registry keeps as
 * they were.
 */
class ShortRunTest {
  @Test
  void shortRunsAreToldOnceTheyReachTheMarkWithTheLoopsClass() throws Exception {
    Rewritten shapes = new Rewritten(Shapes.class, 1 << 20);
    Method map = shapes.lifted.getDeclaredMethod("map", double[].class, double[].class);
    double[] a = new double[16];
    double[] out = new double[16];
    List<Integer> ids = shapes.sites("map").stream().filter(LoopSite::accepted).map(shapes::id).toList();
    assertEquals(2, ids.size(), "the map loop and its checksum");
    for (int r = 1; r < LoopBridge.SHORT_RUNS_TOLD; r++) map.invoke(null, a, out);
    for (int id : ids) assertFalse(InterpretingDispatcher.TOO_SHORT.containsKey(id), "not before the mark");
    map.invoke(null, a, out);
    for (int id : ids) assertSame(shapes.lifted, InterpretingDispatcher.TOO_SHORT.get(id));
  }

  @Test
  void loopsTheRegistryKeepsAreNotRewritten() throws Exception {
    byte[] bytes;
    try (InputStream in = Shapes.class.getResourceAsStream("Shapes.class")) {
      bytes = in.readAllBytes();
    }
    RecordingRegistry all = new RecordingRegistry(site -> true);
    assertNull(rewrite(bytes, all), "every loop kept: the class stays as it is");
    assertTrue(all.sites.stream().anyMatch(LoopSite::accepted), "its loops were still analyzed and registered");

    byte[] out = rewrite(bytes, new RecordingRegistry(site -> site.method().equals("map")));
    assertNotNull(out);
    ClassNode cn = new ClassNode();
    new ClassReader(out).accept(cn, 0);
    for (MethodNode m : cn.methods) {
      if (m.name.equals("map")) assertFalse(callsBridge(m), "map's loops are as they were");
      if (m.name.equals("select")) assertTrue(callsBridge(m), "select's loops are rewritten");
    }
  }

  private static byte[] rewrite(byte[] bytes, RecordingRegistry registry) {
    return new ClassRewriter(new RewriteOptions(0), registry).rewrite(bytes, Shapes.class.getClassLoader());
  }

  private static boolean callsBridge(MethodNode m) {
    for (AbstractInsnNode insn : m.instructions) {
      if (insn instanceof MethodInsnNode call && call.owner.equals(LoopBridge.INTERNAL_NAME)) return true;
    }
    return false;
  }
}
