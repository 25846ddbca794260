package io.looplift.analyzer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.bridge.LoopBridge;
import io.looplift.ir.LoopSite;
import io.looplift.ir.RegionSite;
import io.looplift.ir.SiteRegistry;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
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
    List<LoopSite> all = new ArrayList<>();
    assertNull(rewrite(bytes, all, id -> true), "every loop kept: the class stays as it is");
    assertTrue(all.stream().anyMatch(LoopSite::accepted), "its loops were still analyzed and registered");

    List<LoopSite> some = new ArrayList<>();
    byte[] out = rewrite(bytes, some, id -> some.get(id).method().equals("map"));
    assertNotNull(out);
    ClassNode cn = new ClassNode();
    new ClassReader(out).accept(cn, 0);
    for (MethodNode m : cn.methods) {
      if (m.name.equals("map")) assertFalse(callsBridge(m), "map's loops are as they were");
      if (m.name.equals("select")) assertTrue(callsBridge(m), "select's loops are rewritten");
    }
  }

  private static byte[] rewrite(byte[] bytes, List<LoopSite> sites, Predicate<Integer> keep) {
    SiteRegistry registry = new SiteRegistry() {
      @Override
      public int register(LoopSite site) {
        sites.add(site);
        return sites.size() - 1;
      }

      @Override
      public boolean keepsOriginal(int siteId) {
        return keep.test(siteId);
      }

      @Override
      public void discard(int siteId, String reason) {
        throw new AssertionError(reason);
      }

      @Override
      public int registerRegion(RegionSite region) {
        return 0;
      }
    };
    return new ClassRewriter(new RewriteOptions(0), registry).rewrite(bytes, Shapes.class.getClassLoader());
  }

  private static boolean callsBridge(MethodNode m) {
    for (AbstractInsnNode insn : m.instructions) {
      if (insn instanceof MethodInsnNode call && call.owner.equals(LoopBridge.INTERNAL_NAME)) return true;
    }
    return false;
  }
}
