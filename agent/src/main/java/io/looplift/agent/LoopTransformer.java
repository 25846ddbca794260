package io.looplift.agent;

import io.looplift.analyzer.ClassRewriter;
import io.looplift.profiler.Profiler;
import io.looplift.runtime.Log;
import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Rewrites the loops of eligible classes as they load (or are retransformed). Eligible: defined by a class
 * loader other than the bootstrap, platform and agent loaders, not a JDK or LoopLift class, and accepted by
 * {@code include}/{@code exclude}. Thread-safe and never throws: a class it cannot rewrite loads as it is.
 *
 * <p>It runs on the thread that loads the class, for every class the program loads, so what it does for a
 * class without a loop over arrays must stay small: the rewriter's pre-scan reads the bytes once and keeps
 * nothing. The profiler counts each eligible class and the time spent on it ({@code transform} in the report).
 */
final class LoopTransformer implements ClassFileTransformer {
  // LoopLift's own packages, wherever they are loaded from; other io/looplift code (the example apps) is fair game.
  private static final String[] SKIPPED_PREFIXES = {"java/", "javax/", "jdk/", "sun/", "com/sun/",
      "io/looplift/launcher/", "io/looplift/bridge/", "io/looplift/agent/", "io/looplift/analyzer/",
      "io/looplift/ir/", "io/looplift/progen/", "io/looplift/executors/", "io/looplift/tracecache/",
      "io/looplift/profiler/", "io/looplift/shaded/"};

  private final LoopLiftConfig config;
  private final ClassRewriter rewriter;
  private final Reanalysis reanalysis;
  private final Profiler profiler;
  private final Log log;
  private final ClassLoader platform = ClassLoader.getPlatformClassLoader();
  private final ClassLoader own = LoopTransformer.class.getClassLoader();
  // Internal names, not classes: remembering a name never keeps an application class loader alive.
  private final Set<String> rewritten = ConcurrentHashMap.newKeySet();

  LoopTransformer(LoopLiftConfig config, ClassRewriter rewriter, Profiler profiler, Log log) {
    this(config, rewriter, null, profiler, log);
  }

  /** @param reanalysis told of every class that loads (not only the eligible ones); null for none */
  LoopTransformer(LoopLiftConfig config, ClassRewriter rewriter, Reanalysis reanalysis, Profiler profiler, Log log) {
    this.config = config;
    this.rewriter = rewriter;
    this.reanalysis = reanalysis;
    this.profiler = profiler;
    this.log = log;
  }

  /**
   * The variant the JVM calls, overridden rather than the one without the module: the interface's default
   * method that forwards to that one would be compiled by C2, which would inline this code there (see
   * {@link CompilerDirective}).
   */
  @Override
  public byte[] transform(Module module, ClassLoader loader, String className, Class<?> classBeingRedefined,
      ProtectionDomain protectionDomain, byte[] classfileBuffer) {
    try {
      if (classfileBuffer == null || !ours(loader, className)) return null;
      // An implementation of a method that loops wait for may be in any class of the program, included or not.
      if (reanalysis != null && classBeingRedefined == null) reanalysis.classLoading(classfileBuffer, loader);
      if (!config.accepts(className.replace('/', '.'))) return null;
      long start = System.nanoTime();
      try {
        byte[] out = rewriter.rewrite(classfileBuffer, loader);
        if (out != null) {
          rewritten.add(className);
          log.debug("rewrote " + className.replace('/', '.'));
        }
        return out;
      } finally {
        profiler.classTransformed(System.nanoTime() - start);
      }
    } catch (Throwable e) {
      log.debugOnce("transform " + className, "left " + className + " unchanged: " + e);
      return null;
    }
  }

  /** True when a class named {@code internalName} defined by {@code loader} may be rewritten. */
  boolean eligible(ClassLoader loader, String internalName) {
    return ours(loader, internalName) && config.accepts(internalName.replace('/', '.'));
  }

  /** True for a class of the program (or its libraries): not the JDK's, not LoopLift's. */
  private boolean ours(ClassLoader loader, String internalName) {
    if (loader == null || loader == platform || loader == own || internalName == null) return false;
    for (String p : SKIPPED_PREFIXES) {
      if (internalName.startsWith(p)) return false;
    }
    return true;
  }

  /** True when the already loaded class {@code c} may be rewritten (retransformation at attach). */
  boolean eligible(Class<?> c) {
    return !c.isArray() && !c.isPrimitive() && !c.isHidden() && eligible(c.getClassLoader(), c.getName().replace('.', '/'));
  }

  /** True when this transformer changed a class of that internal name (in any loader). */
  boolean rewrote(String internalName) {
    return rewritten.contains(internalName);
  }
}
