package io.looplift.analyzer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.ir.LoopSite;
import io.looplift.ir.RegionSite;
import io.looplift.ir.SiteRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A test class rewritten as the agent would rewrite it and loaded in a loader of its own, next to the
 * original, with the loop sites the analyzer reported for each method.
 */
final class Rewritten {
  final Class<?> original;
  final Class<?> lifted;
  private final Map<String, List<LoopSite>> sites = new HashMap<>();
  private final Map<LoopSite, Integer> ids = new java.util.IdentityHashMap<>();

  Rewritten(Class<?> original) throws Exception {
    this(original, 0);
  }

  /** {@code original} rewritten with {@code min.length} set to {@code minLength}. */
  Rewritten(Class<?> original, int minLength) throws Exception {
    this(original, minLength, Implementations.NONE);
  }

  /** {@code original} rewritten knowing the implementations of abstract methods {@code implementations} knows. */
  Rewritten(Class<?> original, int minLength, Implementations implementations) throws Exception {
    this(original, classFile(original), minLength, implementations);
  }

  /** {@code original} rewritten from {@code bytes}, its class file or a variant of it. */
  Rewritten(Class<?> original, byte[] bytes, int minLength, Implementations implementations) throws Exception {
    InterpretingDispatcher.install();
    this.original = original;
    SiteRegistry registry = new SiteRegistry() {
      @Override
      public int register(LoopSite site) {
        synchronized (InterpretingDispatcher.SITES) {
          InterpretingDispatcher.SITES.add(site);
          sites.computeIfAbsent(site.method(), k -> new ArrayList<>()).add(site);
          ids.put(site, InterpretingDispatcher.SITES.size() - 1);
          return InterpretingDispatcher.SITES.size() - 1;
        }
      }

      @Override
      public void discard(int siteId, String reason) {
        throw new AssertionError(reason);
      }

      @Override
      public int registerRegion(RegionSite region) {
        InterpretingDispatcher.REGIONS.add(region);
        return InterpretingDispatcher.REGIONS.size() - 1;
      }
    };
    byte[] out = new ClassRewriter(new RewriteOptions(minLength), registry, null, implementations)
        .rewrite(bytes, original.getClassLoader());
    assertNotNull(out, original.getSimpleName() + " must be rewritten");
    String name = original.getName();
    lifted = new ClassLoader(original.getClassLoader()) {
      @Override
      protected Class<?> loadClass(String n, boolean resolve) throws ClassNotFoundException {
        if (!n.equals(name)) return super.loadClass(n, resolve);
        synchronized (getClassLoadingLock(n)) {
          Class<?> c = findLoadedClass(n);
          return c != null ? c : defineClass(n, out, 0, out.length);
        }
      }
    }.loadClass(name);
  }

  static byte[] classFile(Class<?> c) throws IOException {
    try (InputStream in = c.getResourceAsStream(c.getSimpleName() + ".class")) {
      return in.readAllBytes();
    }
  }

  /** The first accepted loop of method {@code name} (of {@code kind} when not null), else its first loop. */
  LoopSite site(String name, String kind) {
    List<LoopSite> all = sites.getOrDefault(name, List.of());
    for (LoopSite s : all) {
      if (s.accepted() && (kind == null || kind.equals(s.kind()))) return s;
    }
    return all.isEmpty() ? null : all.get(0);
  }

  /** The id this rewrite registered {@code site} under. */
  int id(LoopSite site) {
    return ids.get(site);
  }

  /** Every loop site of method {@code name} the analyzer reported, in order. */
  List<LoopSite> sites(String name) {
    return sites.getOrDefault(name, List.of());
  }

  /** Invokes static method {@code name} of {@code c}; an exception it throws becomes its class name. */
  static Object invoke(Class<?> c, String name, Object[] args) throws Exception {
    for (Method m : c.getDeclaredMethods()) {
      if (!m.getName().equals(name)) continue;
      m.setAccessible(true);
      try {
        return m.invoke(null, args);
      } catch (java.lang.reflect.InvocationTargetException e) {
        return e.getCause().getClass().getName();
      }
    }
    throw new AssertionError("no method " + name);
  }

  /**
   * Calls static method {@code name} of the original class and of the rewritten one, each on its own deep copy
   * of {@code args}, and checks they return the same and leave the arrays the same.
   */
  void assertSameResults(String name, Object[] args) throws Exception {
    Object[] plain = RewriteRoundTripTest.deepCopy(args);
    Object[] rewritten = RewriteRoundTripTest.deepCopy(args);
    Object expected = invoke(original, name, plain);
    Object actual = invoke(lifted, name, rewritten);
    assertEquals(String.valueOf(expected), String.valueOf(actual), name);
    assertTrue(Arrays.deepEquals(plain, rewritten), name + ": arrays differ");
  }
}
