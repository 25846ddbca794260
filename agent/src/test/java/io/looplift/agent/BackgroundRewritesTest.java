package io.looplift.agent;

import static org.awaitility.Awaitility.await;
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
import java.lang.instrument.ClassDefinition;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.lang.instrument.UnmodifiableClassException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * {@link BackgroundRewrites} with the {@link Retransformer} over an {@link Instrumentation} that retransforms
 * by handing the class's original bytes to what the transformer does on retransformation.
 */
class BackgroundRewritesTest {
  private static final String MANY = ManyLoops.class.getName().replace('.', '/');
  private static final Duration PATIENCE = Duration.ofSeconds(30);

  private final List<String> lines = new CopyOnWriteArrayList<>();
  private final Log log = new Log(Log.Level.DEBUG, lines::add);
  private final Profiler profiler = new Profiler();
  private final RecordingRegistry sites = new RecordingRegistry();
  private final Defining loader = new Defining();
  private final FakeInstrumentation inst = new FakeInstrumentation();
  private final Retransformer retransformer = new Retransformer(inst, log);
  private final BackgroundRewrites background = new BackgroundRewrites(
      new ClassRewriter(new RewriteOptions(0), sites), retransformer, sites, profiler, log);

  @Test
  void aClassWithManyMethodsWithLoopsLoadsAsItIsAndItsRewriteIsInstalledByRetransformation() throws IOException {
    byte[] original = bytesOf(ManyLoops.class);
    assertTrue(ClassRewriter.scan(original).offloadableMethods() > BackgroundRewrites.MANY_METHODS);
    assertTrue(background.offer(MANY, ClassRewriter.scan(original), loader), "taken: the class loads as it is");
    Class<?> defined = loader.define(original); // the loading thread goes on and defines it
    await().atMost(PATIENCE).until(() -> inst.installed.size() == 1);
    assertEquals(List.of(defined), inst.retransformed);
    byte[] installed = inst.installed.get(0);
    assertNotNull(installed);
    assertFalse(Arrays.equals(original, installed), "the rewritten class file");
    assertEquals(BackgroundRewrites.MANY_METHODS + 1, sites.offloaded().size(), sites.offloaded()::toString);
    assertNull(background.take(loader, MANY), "handed over once");
    assertTrue(profiler.reportJson().contains("\"background\":{\"classes\":1,"), profiler.reportJson());
    String rewrote = "looplift: rewrote " + ManyLoops.class.getName() + " off its loading thread";
    await().atMost(PATIENCE).until(() -> lines.contains(rewrote));
  }

  @Test
  void aClassWithFewMethodsWithLoopsIsLeftToItsLoadingThread() throws IOException {
    byte[] doubler = bytesOf(LoopTransformerTest.Doubler.class);
    assertFalse(background.offer("com/acme/Doubler", ClassRewriter.scan(doubler), loader));
    assertTrue(sites.offloaded().isEmpty());
  }

  @Test
  void aClassTheJvmWillNotChangeKeepsItsLoopsAsTheyAreAndTheReportSaysWhy() throws IOException {
    inst.modifiable = false;
    byte[] original = bytesOf(ManyLoops.class);
    loader.define(original);
    assertTrue(background.offer(MANY, ClassRewriter.scan(original), loader));
    await().atMost(PATIENCE).until(() -> sites.discarded().size() == BackgroundRewrites.MANY_METHODS + 1);
    assertEquals(Set.of("its class could not be rewritten after it loaded: the JVM does not let its class be changed"),
        Set.copyOf(sites.discarded().values()));
    assertTrue(inst.retransformed.isEmpty());
    assertNull(background.take(loader, MANY), "nothing kept");
  }

  @Test
  void aReportRewritesTheClassesStillWaitingOnItsOwnThread() throws Exception {
    CountDownLatch busy = new CountDownLatch(1);
    retransformer.execute(() -> {
      try {
        busy.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    byte[] original = bytesOf(ManyLoops.class);
    assertTrue(background.offer(MANY, ClassRewriter.scan(original), loader));
    loader.define(original);
    assertTrue(sites.offloaded().isEmpty(), "still waiting behind the busy thread");
    background.rewriteWaiting();
    assertEquals(BackgroundRewrites.MANY_METHODS + 1, sites.offloaded().size(), "in the report now");
    busy.countDown();
    await().atMost(PATIENCE).until(() -> inst.installed.size() == 1);
    assertEquals(BackgroundRewrites.MANY_METHODS + 1, sites.offloaded().size(), "rewritten once");
    assertNotNull(inst.installed.get(0));
  }

  private static byte[] bytesOf(Class<?> c) throws IOException {
    try (InputStream in = c.getResourceAsStream(c.getName().substring(c.getName().lastIndexOf('.') + 1) + ".class")) {
      return in.readAllBytes();
    }
  }

  /** A loader that defines a class from the bytes it is given, as a program's loader would. */
  private static final class Defining extends ClassLoader {
    Defining() {
      super(BackgroundRewritesTest.class.getClassLoader());
    }

    Class<?> define(byte[] classfile) {
      return defineClass(null, classfile, 0, classfile.length);
    }

    Class<?> findLoaded(String name) {
      return findLoadedClass(name);
    }
  }

  /** Records sites, those offloaded and those discarded with their reasons. */
  private static final class RecordingRegistry implements SiteRegistry {
    private final List<LoopSite> all = new ArrayList<>();
    private final Map<Integer, String> discarded = new HashMap<>();

    @Override
    public synchronized int register(LoopSite site) {
      int known = all.indexOf(site);
      if (known >= 0) return known;
      all.add(site);
      return all.size() - 1;
    }

    @Override
    public synchronized void discard(int siteId, String reason) {
      discarded.put(siteId, reason);
    }

    @Override
    public int registerRegion(RegionSite region) {
      return 0;
    }

    synchronized List<LoopSite> offloaded() {
      return all.stream().filter(LoopSite::accepted).toList();
    }

    synchronized Map<Integer, String> discarded() {
      return Map.copyOf(discarded);
    }
  }

  /**
   * Knows the classes its {@link Defining} loader defined; retransforms one by asking the background rewrites
   * for its rewritten class file, as the transformer does, and keeps what it got.
   */
  private final class FakeInstrumentation implements Instrumentation {
    final List<Class<?>> retransformed = new CopyOnWriteArrayList<>();
    final List<byte[]> installed = new CopyOnWriteArrayList<>();
    volatile boolean modifiable = true;

    @Override
    public Class<?>[] getInitiatedClasses(ClassLoader l) {
      Class<?> c = l == loader ? loader.findLoaded(ManyLoops.class.getName()) : null;
      return c == null ? new Class<?>[0] : new Class<?>[] {c};
    }

    @Override
    public void retransformClasses(Class<?>... classes) {
      for (Class<?> c : classes) {
        retransformed.add(c);
        installed.add(background.take(c.getClassLoader(), c.getName().replace('.', '/')));
      }
    }

    @Override
    public boolean isModifiableClass(Class<?> theClass) {
      return modifiable;
    }

    @Override
    public void addTransformer(ClassFileTransformer transformer, boolean canRetransform) {}

    @Override
    public void addTransformer(ClassFileTransformer transformer) {}

    @Override
    public boolean removeTransformer(ClassFileTransformer transformer) {
      return false;
    }

    @Override
    public boolean isRetransformClassesSupported() {
      return true;
    }

    @Override
    public boolean isRedefineClassesSupported() {
      return false;
    }

    @Override
    public void redefineClasses(ClassDefinition... definitions) throws UnmodifiableClassException {
      throw new UnmodifiableClassException("not in this test");
    }

    @Override
    public Class<?>[] getAllLoadedClasses() {
      return new Class<?>[0];
    }

    @Override
    public long getObjectSize(Object objectToSize) {
      return 0;
    }

    @Override
    public void appendToBootstrapClassLoaderSearch(JarFile jarfile) {}

    @Override
    public void appendToSystemClassLoaderSearch(JarFile jarfile) {}

    @Override
    public boolean isNativeMethodPrefixSupported() {
      return false;
    }

    @Override
    public void setNativeMethodPrefix(ClassFileTransformer transformer, String prefix) {}

    @Override
    public void redefineModule(Module module, Set<Module> extraReads, Map<String, Set<Module>> extraExports,
        Map<String, Set<Module>> extraOpens, Set<Class<?>> extraUses, Map<Class<?>, List<Class<?>>> extraProvides) {}

    @Override
    public boolean isModifiableModule(Module module) {
      return false;
    }
  }

  /** A utility class of the kind libraries have: one loop in each of many small methods. */
  static final class ManyLoops {
    private ManyLoops() {}

    static void m0(float[] a, float[] b) { for (int i = 0; i < a.length; i++) b[i] = a[i] + 0f; }
    static void m1(float[] a, float[] b) { for (int i = 0; i < a.length; i++) b[i] = a[i] + 1f; }
    static void m2(float[] a, float[] b) { for (int i = 0; i < a.length; i++) b[i] = a[i] + 2f; }
    static void m3(float[] a, float[] b) { for (int i = 0; i < a.length; i++) b[i] = a[i] + 3f; }
    static void m4(float[] a, float[] b) { for (int i = 0; i < a.length; i++) b[i] = a[i] + 4f; }
    static void m5(float[] a, float[] b) { for (int i = 0; i < a.length; i++) b[i] = a[i] + 5f; }
    static void m6(float[] a, float[] b) { for (int i = 0; i < a.length; i++) b[i] = a[i] + 6f; }
    static void m7(float[] a, float[] b) { for (int i = 0; i < a.length; i++) b[i] = a[i] + 7f; }
    static void m8(float[] a, float[] b) { for (int i = 0; i < a.length; i++) b[i] = a[i] + 8f; }
    static void m9(float[] a, float[] b) { for (int i = 0; i < a.length; i++) b[i] = a[i] + 9f; }
    static void m10(float[] a, float[] b) { for (int i = 0; i < a.length; i++) b[i] = a[i] + 10f; }
    static void m11(float[] a, float[] b) { for (int i = 0; i < a.length; i++) b[i] = a[i] + 11f; }
    static void m12(float[] a, float[] b) { for (int i = 0; i < a.length; i++) b[i] = a[i] + 12f; }
    static void m13(float[] a, float[] b) { for (int i = 0; i < a.length; i++) b[i] = a[i] + 13f; }
    static void m14(float[] a, float[] b) { for (int i = 0; i < a.length; i++) b[i] = a[i] + 14f; }
    static void m15(float[] a, float[] b) { for (int i = 0; i < a.length; i++) b[i] = a[i] + 15f; }
    static void m16(float[] a, float[] b) { for (int i = 0; i < a.length; i++) b[i] = a[i] + 16f; }
  }
}
