package io.looplift.analyzer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.ir.LoopSite;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.ClassNode;

/**
 * HotSpot never compiles a method of more than 8,000 bytes of bytecode: a rewrite that would take a method
 * past that keeps the method as it was, and says so for each of its loops.
 */
class HugeMethodTest {
  @TempDir Path dir;

  private final RecordingRegistry registry = new RecordingRegistry();
  private final List<LoopSite> sites = registry.sites;
  private final Map<Integer, String> discarded = registry.discarded;

  @Test
  void aMethodTheRewriteWouldPushPastTheLimitKeepsItsBytecode() throws Exception {
    // Each padding statement (p = p * 31 + 7 on local 2) is 8 bytes of bytecode.
    int base = size(compile(0, 0), "near");
    int pads = (MethodSize.HUGE_METHOD_LIMIT - 10 - base) / 8;
    byte[] original = compile(pads, (MethodSize.HUGE_METHOD_LIMIT + 100 - base) / 8);
    int near = size(original, "near");
    assertTrue(near <= MethodSize.HUGE_METHOD_LIMIT && near > MethodSize.HUGE_METHOD_LIMIT - 20, "near: " + near);
    assertTrue(size(original, "huge") > MethodSize.HUGE_METHOD_LIMIT);

    byte[] rewritten = new ClassRewriter(new RewriteOptions(0), registry).rewrite(original, null);

    assertNotNull(rewritten, () -> "the other methods are rewritten: " + sites + " " + discarded);
    assertEquals(near, size(rewritten, "near"), "near keeps its bytecode");
    assertTrue(size(rewritten, "small") > size(original, "small"), "small is rewritten");
    assertTrue(size(rewritten, "huge") > size(original, "huge"),
        "a method past the limit already runs interpreted: rewriting it costs nothing more");
    int nearLoops = 0;
    for (int id = 0; id < sites.size(); id++) {
      boolean inNear = sites.get(id).method().equals("near");
      if (inNear) {
        nearLoops++;
        assertTrue(discarded.getOrDefault(id, "").contains("HugeMethodLimit"), "near's loop " + id + ": " + discarded.get(id));
      } else {
        assertTrue(!discarded.containsKey(id), sites.get(id).method() + "'s loop discarded: " + discarded.get(id));
      }
    }
    assertEquals(3, nearLoops);
  }

  /** Class Big: methods small, near and huge, the same three loops after 0, {@code near} and {@code huge} pads. */
  private byte[] compile(int near, int huge) throws Exception {
    StringBuilder src = new StringBuilder("public class Big {\n");
    String[] names = {"small", "near", "huge"};
    int[] pads = {0, near, huge};
    for (int m = 0; m < 3; m++) {
      src.append("  public static int ").append(names[m]).append("(float[] a, float[] b, int p) {\n");
      for (int k = 0; k < pads[m]; k++) src.append("    p = p * 31 + 7;\n");
      src.append("""
              for (int i = 0; i < a.length; i++) a[i] = a[i] * 2f + b[i];
              for (int i = 0; i < b.length; i++) b[i] = b[i] - a[i];
              for (int i = 0; i < a.length; i++) a[i] = a[i] * 0.5f;
              return p;
            }
          """);
    }
    src.append("}\n");
    Path file = dir.resolve("Big.java");
    Files.writeString(file, src);
    assertEquals(0, ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", dir.toString(), file.toString()));
    return Files.readAllBytes(dir.resolve("Big.class"));
  }

  /** The size of method {@code name}'s code in {@code classfile}. */
  private static int size(byte[] classfile, String name) {
    ClassReader cr = new ClassReader(classfile);
    ClassNode cn = new ClassNode();
    cr.accept(cn, ClassReader.SKIP_FRAMES);
    return MethodSize.of(cn.methods.stream().filter(m -> m.name.equals(name)).findFirst().orElseThrow(), cr);
  }
}
