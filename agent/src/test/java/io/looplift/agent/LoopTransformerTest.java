package io.looplift.agent;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.analyzer.ClassRewriter;
import io.looplift.analyzer.RewriteOptions;
import io.looplift.ir.LoopSite;
import io.looplift.ir.RegionSite;
import io.looplift.ir.SiteRegistry;
import io.looplift.runtime.Log;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LoopTransformerTest {
  private final List<String> lines = new ArrayList<>();
  private final Log log = new Log(Log.Level.DEBUG, lines::add);
  private final ClassLoader app = new URLClassLoader(new URL[0], getClass().getClassLoader());

  private LoopTransformer transformer(String args) {
    LoopLiftConfig config = LoopLiftConfig.load(LoopLiftConfig.parseArgs(args, lines::add), Map.of(), Map.of(), List.of("jvm"),
        lines::add);
    return new LoopTransformer(config, new ClassRewriter(new RewriteOptions(0), new CountingRegistry()), log);
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
    assertNull(t.transform(app, "com/acme/Broken", null, null, new byte[] {1, 2, 3}));
    assertNull(t.transform(app, "com/acme/Empty", null, null, null));
    assertFalse(t.rewrote("com/acme/Broken"));
  }

  /** Numbers sites in the order they come; the transformer's tests need no pipeline behind them. */
  private static final class CountingRegistry implements SiteRegistry {
    private int sites;
    private int regions;

    @Override
    public synchronized int register(LoopSite site) { return sites++; }

    @Override
    public void discard(int siteId, String reason) {}

    @Override
    public synchronized int registerRegion(RegionSite region) { return regions++; }
  }
}
