package io.looplift.agent;

import io.looplift.analyzer.ClassRewriter;
import io.looplift.ir.SiteRegistry;
import io.looplift.profiler.Profiler;
import io.looplift.runtime.Log;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Rewrites classes with many methods with loops off the thread that loads them. Analysis costs in proportion
 * to the loops, and most in a fresh JVM, where the analyzer's own code still runs in the interpreter: Smile's
 * {@code MathEx}, 121 such methods, took its loading thread 0.6 s there (60 ms once warm), twice what the
 * program using it ran for. Such a class loads as it is; the {@link Retransformer}'s thread analyzes and
 * rewrites it, and retransformation installs the rewritten class, whose methods the program's next calls
 * run. A method running meanwhile keeps its original loops until it is called again. Thread-safe; never
 * throws.
 */
final class BackgroundRewrites {
  /**
   * A class with more methods with a loop the analysis may accept ({@link ClassRewriter.Scanned#offloadableMethods})
   * is rewritten in the background. Applications' own classes have fewer; libraries' utility classes more
   * (EJML's {@code CommonOps_DDRM} 65, Commons Math's {@code BlockRealMatrix} 36).
   */
  static final int MANY_METHODS = 16;

  /** A class by defining loader and internal name. */
  private record Key(ClassLoader loader, String name) {}

  private final ClassRewriter rewriter;
  private final Retransformer retransformer;
  private final SiteRegistry sites;
  private final Profiler profiler;
  private final Log log;
  /** Class files handed over and not yet rewritten. */
  private final Map<Key, ClassRewriter.Scanned> waiting = new ConcurrentHashMap<>();
  /** Rewritten class files waiting for their class's retransformation. */
  private final Map<Key, byte[]> rewritten = new ConcurrentHashMap<>();

  BackgroundRewrites(ClassRewriter rewriter, Retransformer retransformer, SiteRegistry sites, Profiler profiler,
      Log log) {
    this.rewriter = rewriter;
    this.retransformer = retransformer;
    this.sites = sites;
    this.profiler = profiler;
    this.log = log;
  }

  /**
   * Takes a class about to be defined by {@code loader} to rewrite it in the background, when it has many
   * methods with loops; returns whether it did (the class then loads as it is).
   */
  boolean offer(String internalName, ClassRewriter.Scanned classfile, ClassLoader loader) {
    if (classfile.offloadableMethods() <= MANY_METHODS) return false;
    Key key = new Key(loader, internalName);
    waiting.put(key, classfile);
    if (retransformer.execute(() -> rewrite(key))) return true;
    waiting.remove(key);
    return false;
  }

  /** The rewritten class file of a class being retransformed to install it, or null when it has none. */
  byte[] take(ClassLoader loader, String internalName) {
    return rewritten.remove(new Key(loader, internalName));
  }

  /**
   * Rewrites every class still waiting, on this thread, so that a report made now has their loops; their
   * retransformation follows on the retransformation thread.
   */
  void rewriteWaiting() {
    for (Key key : List.copyOf(waiting.keySet())) rewrite(key);
  }

  private void rewrite(Key key) {
    ClassRewriter.Scanned classfile = waiting.remove(key);
    if (classfile == null) return; // rewritten for a report already
    List<Integer> offloaded = new ArrayList<>();
    long start = System.nanoTime();
    byte[] out;
    try {
      out = rewriter.rewrite(classfile, key.loader(), offloaded::add);
    } finally {
      profiler.classRewrittenInBackground(System.nanoTime() - start);
    }
    if (out == null) return;
    rewritten.put(key, out);
    String name = key.name().replace('/', '.');
    retransformer.retransform(key.name(), key.loader(), () -> { }, why -> {
      rewritten.remove(key); // taken by the transformer, unless the retransformation did not reach it
      if (why == null) {
        log.debug("rewrote " + name + " off its loading thread");
        return;
      }
      for (int id : offloaded) sites.discard(id, "its class could not be rewritten after it loaded: " + why);
    });
  }
}
