package io.looplift.analyzer;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.bridge.LoopBridge;
import io.looplift.ir.LoopSite;
import io.looplift.ir.RegionSite;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * A loop whose runs are all shorter than {@code min.length} counts them through the bridge, which tells
 * the pipeline once, with the loop's class; once its switch is off it runs as the original; rewriting a
 * class again leaves the loops the registry keeps as they were.
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
    Thread.sleep(3 * LoopBridge.SHORT_RUNS_LOOK_MILLIS);
    for (int id : ids) assertFalse(InterpretingDispatcher.TOO_SHORT.containsKey(id), "not before the mark");
    map.invoke(null, a, out);
    // Told by the bridge's watch thread, soon after.
    for (int id : ids) {
      await().atMost(Duration.ofSeconds(10)).until(() -> InterpretingDispatcher.TOO_SHORT.containsKey(id));
      assertSame(shapes.lifted, InterpretingDispatcher.TOO_SHORT.get(id));
    }
  }

  @Test
  void aLoopThatHasRunLongNoLongerCountsItsShortRuns() throws Exception {
    Rewritten shapes = new Rewritten(Shapes.class, 64);
    Method map = shapes.lifted.getDeclaredMethod("map", double[].class, double[].class);
    List<Integer> ids = shapes.sites("map").stream().filter(LoopSite::accepted).map(shapes::id).toList();
    double[] a = new double[16];
    double[] out = new double[16];
    for (int r = 0; r < 1000; r++) map.invoke(null, a, out);
    double[] longA = new double[64];
    double[] longOut = new double[64];
    double[] expected = new double[64];
    for (int i = 0; i < longA.length; i++) longA[i] = i * 0.5;
    assertEquals(Shapes.map(longA, expected), (double) map.invoke(null, longA, longOut), "offered, and right");
    assertArrayEquals(expected, longOut);
    for (int r = 0; r < LoopBridge.SHORT_RUNS_TOLD; r++) map.invoke(null, a, out);
    Thread.sleep(3 * LoopBridge.SHORT_RUNS_LOOK_MILLIS);
    for (int id : ids) assertFalse(InterpretingDispatcher.TOO_SHORT.containsKey(id), "its short runs no longer count");
  }

  @Test
  void aSiteSwitchedOffRunsItsOriginalLoopAndNoLongerCountsShortRuns() throws Exception {
    Rewritten shapes = new Rewritten(Shapes.class, 1 << 20);
    Method map = shapes.lifted.getDeclaredMethod("map", double[].class, double[].class);
    double[] a = new double[16];
    for (int i = 0; i < a.length; i++) a[i] = i * 0.25;
    double[] out = new double[16];
    double[] expected = new double[16];
    double sum = Shapes.map(a, expected);
    List<Integer> ids = shapes.sites("map").stream().filter(LoopSite::accepted).map(shapes::id).toList();
    map.invoke(null, a, out);
    for (int id : ids) assertTrue(LoopBridge.switchOff(id), "its preamble asked for its switch on the first run");
    for (int r = 0; r < LoopBridge.SHORT_RUNS_TOLD; r++) map.invoke(null, a, out);
    Thread.sleep(3 * LoopBridge.SHORT_RUNS_LOOK_MILLIS);
    for (int id : ids) assertFalse(InterpretingDispatcher.TOO_SHORT.containsKey(id), "the preamble no longer runs");
    assertEquals(sum, (double) map.invoke(null, a, out));
    assertArrayEquals(expected, out);
  }

  @Test
  void shortRunsAreCountedThroughInvokeDynamicUnlessTheClassFileIsOlderThanJava7() throws Exception {
    byte[] bytes;
    try (InputStream in = Shapes.class.getResourceAsStream("Shapes.class")) {
      bytes = in.readAllBytes();
    }
    RewriteOptions counted = new RewriteOptions(1 << 20);
    ClassLoader loader = Shapes.class.getClassLoader();
    byte[] rewritten = new ClassRewriter(counted, new RecordingRegistry()).rewrite(bytes, loader);
    assertFalse(indys(rewritten, LoopBridge.SHORT_RUN_COUNTER).isEmpty());
    assertEquals(List.of(), bridgeCalls(rewritten, LoopBridge.SHORT_RUN));
    byte[] java6 = bytes.clone();
    java6[6] = 0;
    java6[7] = (byte) Opcodes.V1_6;
    byte[] old = new ClassRewriter(counted, new RecordingRegistry()).rewrite(java6, loader);
    assertEquals(List.of(), indys(old, LoopBridge.SHORT_RUN_COUNTER));
    assertFalse(bridgeCalls(old, LoopBridge.SHORT_RUN).isEmpty(), "a static call instead");
  }

  @Test
  void eachRewrittenLoopAndRegionHasASwitchUnlessItsClassFileIsOlderThanJava7() throws Exception {
    byte[] bytes;
    try (InputStream in = Shapes.class.getResourceAsStream("Shapes.class")) {
      bytes = in.readAllBytes();
    }
    RecordingRegistry registry = new RecordingRegistry();
    List<Object> switched = switches(rewrite(bytes, registry));
    List<Object> accepted = new ArrayList<>();
    for (int id = 0; id < registry.sites.size(); id++) {
      if (registry.sites.get(id).accepted()) accepted.add(id);
    }
    assertEquals(accepted, switched.stream().distinct().sorted().toList(), "a switch for each rewritten loop, by its site id");
    assertFalse(registry.regions.isEmpty(), "Shapes has a region");
    List<Object> firstOfRegions = new ArrayList<>();
    for (RegionSite r : registry.regions) firstOfRegions.add(r.siteIds().get(0));
    List<Object> twice = new ArrayList<>(switched);
    accepted.forEach(twice::remove);
    assertEquals(firstOfRegions, twice, "and one more at each region's entry, its first loop's");

    byte[] java6 = bytes.clone();
    java6[6] = 0;
    java6[7] = (byte) Opcodes.V1_6;
    assertEquals(List.of(), switches(rewrite(java6, new RecordingRegistry())), "no invokedynamic before Java 7");
  }

  /** The site ids of the rewritten class's preamble switches. */
  private static List<Object> switches(byte[] rewritten) {
    return indys(rewritten, LoopBridge.SITE_SWITCH);
  }

  /** The site ids of the rewritten class's {@code invokedynamic}s linked by the bridge's {@code bootstrap}. */
  private static List<Object> indys(byte[] rewritten, String bootstrap) {
    List<Object> ids = new ArrayList<>();
    for (MethodNode m : methods(rewritten)) {
      for (AbstractInsnNode insn : m.instructions) {
        if (insn instanceof InvokeDynamicInsnNode indy) {
          assertEquals(LoopBridge.INTERNAL_NAME, indy.bsm.getOwner());
          if (indy.bsm.getName().equals(bootstrap)) ids.add(indy.bsmArgs[0]);
        }
      }
    }
    return ids;
  }

  /** The rewritten class's calls of the bridge's method {@code name}. */
  private static List<MethodInsnNode> bridgeCalls(byte[] rewritten, String name) {
    List<MethodInsnNode> calls = new ArrayList<>();
    for (MethodNode m : methods(rewritten)) {
      for (AbstractInsnNode insn : m.instructions) {
        if (insn instanceof MethodInsnNode c && c.owner.equals(LoopBridge.INTERNAL_NAME) && c.name.equals(name)) {
          calls.add(c);
        }
      }
    }
    return calls;
  }

  private static List<MethodNode> methods(byte[] classFile) {
    ClassNode cn = new ClassNode();
    new ClassReader(classFile).accept(cn, 0);
    return cn.methods;
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
