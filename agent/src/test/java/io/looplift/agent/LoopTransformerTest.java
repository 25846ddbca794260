package io.looplift.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.analyzer.ClassRewriter;
import io.looplift.analyzer.RewriteOptions;
import io.looplift.ir.LoopSite;
import io.looplift.ir.RegionSite;
import io.looplift.ir.SiteRegistry;
import io.looplift.profiler.Profiler;
import io.looplift.runtime.Log;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class LoopTransformerTest {
  private final List<String> lines = new ArrayList<>();
  private final Log log = new Log(Log.Level.DEBUG, lines::add);
  private final ClassLoader app = new URLClassLoader(new URL[0], getClass().getClassLoader());
  private final Profiler profiler = new Profiler();

  private LoopTransformer transformer(String args) {
    LoopLiftConfig config = LoopLiftConfig.load(LoopLiftConfig.parseArgs(args, lines::add), Map.of(), Map.of(), List.of("jvm"),
        lines::add);
    return new LoopTransformer(config, new ClassRewriter(new RewriteOptions(0), new CountingRegistry()), profiler, log);
  }

  @Test
  void jdkAndAgentClassesAndLoadersAreNeverTouched() {
    LoopTransformer t = transformer("");
    assertFalse(t.eligible(null, "com/acme/Foo"));
    assertFalse(t.eligible(ClassLoader.getPlatformClassLoader(), "com/acme/Foo"));
    assertFalse(t.eligible(LoopTransformer.class.getClassLoader(), "com/acme/Foo"));
    for (String name : List.of("java/util/Foo", "javax/x/Y", "jdk/internal/Z", "sun/misc/U", "com/sun/X",
        "io/looplift/shaded/asm/ClassReader", "io/looplift/agent/LoopLiftAgent")) {
      assertFalse(t.eligible(app, name), name);
    }
    assertFalse(t.eligible(app, null));
    assertTrue(t.eligible(app, "com/acme/Foo"));
    assertTrue(t.eligible(app, "Main"));
    assertTrue(t.eligible(app, "io/looplift/apps/Demo"));
  }

  @Test
  void includeAndExcludeApply() {
    LoopTransformer t = transformer("include=com.acme.*,exclude=com.acme.gen.*");
    assertTrue(t.eligible(app, "com/acme/Foo"));
    assertTrue(t.eligible(app, "com/acme/Foo$1"));
    assertFalse(t.eligible(app, "com/acme/gen/Foo"));
    assertFalse(t.eligible(app, "org/other/Foo"));
  }

  @Test
  void loadedClassesAreFilteredTheSameWay() {
    LoopTransformer t = transformer("");
    assertFalse(t.eligible(String.class));
    assertFalse(t.eligible(int[].class));
    assertFalse(t.eligible(int.class));
    assertFalse(t.eligible(LoopTransformer.class)); // io.looplift
    Runnable lambda = () -> {};
    assertFalse(t.eligible(lambda.getClass()), "hidden classes cannot be retransformed");
  }

  @Test
  void aClassThatCannotBeRewrittenLoadsUnchanged() {
    LoopTransformer t = transformer("");
    assertNull(t.transform(app.getUnnamedModule(), app, "com/acme/Broken", null, null, new byte[] {1, 2, 3}));
    assertNull(t.transform(app.getUnnamedModule(), app, "com/acme/Empty", null, null, null));
    assertFalse(t.rewrote("com/acme/Broken"));
  }

  @Test
  void theReportCountsTheClassesExaminedAndTheirTime() throws Exception {
    LoopTransformer t = transformer("");
    assertNull(t.transform(Object.class.getModule(), null, "com/acme/Boot", null, null, bytesOf(Doubler.class)), "bootstrap classes are not examined");
    assertNull(t.transform(app.getUnnamedModule(), app, "com/acme/NoLoop", null, null, bytesOf(LoopTransformerTest.class)));
    assertNotNull(t.transform(app.getUnnamedModule(), app, "com/acme/Doubler", null, null, bytesOf(Doubler.class)));
    assertTrue(t.rewrote("com/acme/Doubler"));
    Matcher m = Pattern.compile("\"transform\":\\{\"classes\":(\\d+),\"nanos\":(\\d+),").matcher(profiler.reportJson());
    assertTrue(m.find(), profiler.reportJson());
    assertEquals("2", m.group(1));
    assertTrue(Long.parseLong(m.group(2)) > 0);
  }

  @Test
  void loopsOnlyAReportNeedsAreAnalyzedWhenAReportIsMade() throws Exception {
    LoopLiftConfig config = LoopLiftConfig.load(Map.of(), Map.of(), Map.of(), List.of("jvm"), lines::add);
    CountingRegistry registry = new CountingRegistry();
    DeferredAnalyses deferred = new DeferredAnalyses(profiler);
    profiler.beforeReport(deferred::runAll);
    LoopTransformer t = new LoopTransformer(config, new ClassRewriter(new RewriteOptions(0), registry, deferred),
        profiler, log);
    assertNull(t.transform(app.getUnnamedModule(), app, "com/acme/Printer", null, null, bytesOf(Printer.class)));
    assertNotNull(t.transform(app.getUnnamedModule(), app, "com/acme/Doubler", null, null, bytesOf(Doubler.class)));
    assertEquals(List.of("twice"), registry.methods(), "the printing loop waits for a report");
    String report = profiler.reportJson();
    assertEquals(List.of("twice", "show"), registry.methods());
    assertTrue(report.contains("\"deferred\":{\"classes\":1,"), report);
    profiler.reportJson();
    assertEquals(2, registry.methods().size(), "analyzed once");
  }

  private static byte[] bytesOf(Class<?> c) throws IOException {
    try (InputStream in = c.getResourceAsStream(c.getName().substring(c.getName().lastIndexOf('.') + 1) + ".class")) {
      return in.readAllBytes();
    }
  }

  /** A class with one loop over arrays, for the transformer to rewrite. */
  static final class Doubler {
    private Doubler() {}

    static void twice(int[] a, int[] b) {
      for (int i = 0; i < a.length; i++) b[i] = a[i] * 2;
    }
  }

  /** A class whose loop over an array prints, which the analyzer always rejects. */
  static final class Printer {
    private Printer() {}

    static void show(int[] a) {
      for (int i = 0; i < a.length; i++) System.out.println(a[i]);
    }
  }

  /** Numbers sites in the order they come; the transformer's tests need no pipeline behind them. */
  private static final class CountingRegistry implements SiteRegistry {
    private final List<String> methods = new ArrayList<>();
    private int regions;

    @Override
    public synchronized int register(LoopSite site) {
      methods.add(site.method());
      return methods.size() - 1;
    }

    synchronized List<String> methods() { return List.copyOf(methods); }

    @Override
    public void discard(int siteId, String reason) {}

    @Override
    public synchronized int registerRegion(RegionSite region) { return regions++; }
  }
}
