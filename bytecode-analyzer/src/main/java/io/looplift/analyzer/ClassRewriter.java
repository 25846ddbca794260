package io.looplift.analyzer;

import java.util.List;

/**
 * Finds the loops of a class file and rewrites each recognized one into guards, a call to
 * {@code io.looplift.bridge.LoopBridge.submit}, and the original loop as fallback, with
 * {@code LoopBridge.sync()} before the read points that follow. Thread-safe and never throws: any
 * internal error leaves the class unchanged.
 */
public final class ClassRewriter {
  private final RewriteOptions options;
  private final SiteRegistry registry;

  public ClassRewriter(RewriteOptions options, SiteRegistry registry) {
    this.options = options;
    this.registry = registry;
  }

  /**
   * Returns the rewritten class file, or null when the class is to stay as it is (no loop recognized,
   * unsupported class file, or an internal error). Every loop seen is registered, accepted or not.
   *
   * @param loader the class's defining loader (null for bootstrap), used only to read the bytes of
   *     other classes, never to load them
   */
  public byte[] rewrite(byte[] classfile, ClassLoader loader) {
    throw new UnsupportedOperationException("in progress");
  }

  /** The loop sites of a class file without rewriting it (for {@code analyze JAR|DIR}). */
  public static List<LoopSite> analyze(byte[] classfile, ClassLoader loader) {
    throw new UnsupportedOperationException("in progress");
  }
}
