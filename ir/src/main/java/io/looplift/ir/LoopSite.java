package io.looplift.ir;

import java.util.List;
import java.util.Objects;

/**
 * A loop the analyzer looked at: where it is and either what it computes or why it stays as bytecode.
 *
 * @param className binary name with dots
 * @param method method name
 * @param descriptor method descriptor
 * @param line source line of the loop header, or -1 without debug information
 * @param kind {@code map}, {@code reduce}, {@code scan}, {@code argmin}/{@code argmax}, {@code nest} for a loop
 *     with loops inside, or {@code loop} when rejected before its shape was known
 * @param template the IR; null when rejected
 * @param shape the iteration space; null when rejected
 * @param reason why the loop is not offloaded, readable by a user; null when accepted
 * @param readsBeforeWrites every array load of an iteration comes before its first array store, so the
 *     loop may run with an output that is the same array as an input when both are accessed at the same
 *     element (in-place calls such as {@code scale(x, k, x)})
 * @param parallel for a nest, the source names of the variables of the loops whose iterations run in
 *     parallel, outermost first (e.g. {@code [i, j]}); empty otherwise
 * @param classHash a hash of the class file the loop is in, which changes when the file does (what the
 *     executor selection measured for the loop holds while it stays the same); null when not known
 */
public record LoopSite(String className, String method, String descriptor, int line, String kind,
    LoopTemplate template, LoopShape shape, String reason, boolean readsBeforeWrites, List<String> parallel,
    String classHash) {
  public LoopSite {
    parallel = List.copyOf(parallel);
  }

  /** A site whose class file is not known yet. */
  public LoopSite(String className, String method, String descriptor, int line, String kind, LoopTemplate template,
      LoopShape shape, String reason, boolean readsBeforeWrites, List<String> parallel) {
    this(className, method, descriptor, line, kind, template, shape, reason, readsBeforeWrites, parallel, null);
  }

  /**
   * Ends the reason of a loop rejected only for calling an abstract method that no loaded class implements
   * yet: once one loads, its class is rewritten again, and the loop registered anew replaces this site.
   */
  public static final String AWAITS_IMPLEMENTATION = " that no loaded class implements yet (looked at again when one loads)";

  /** A site that allows no aliasing between its arrays. */
  public LoopSite(String className, String method, String descriptor, int line, String kind, LoopTemplate template,
      LoopShape shape, String reason) {
    this(className, method, descriptor, line, kind, template, shape, reason, false, List.of());
  }

  /** This site in the class file whose hash is {@code hash}. */
  public LoopSite inClassFile(String hash) {
    return new LoopSite(className, method, descriptor, line, kind, template, shape, reason, readsBeforeWrites,
        parallel, hash);
  }

  /** How many loops deep the site is: 1 for a loop without loops inside, 0 when rejected. */
  public int depth() {
    return template == null ? 0 : template.depth();
  }

  public boolean accepted() { return reason == null; }

  /** True when the site was rejected for want of an implementation (see {@link #AWAITS_IMPLEMENTATION}). */
  public boolean awaitsImplementation() {
    return reason != null && reason.endsWith(AWAITS_IMPLEMENTATION);
  }

  /**
   * True when {@code other} is a loop at the same place of the same class: method and line. (Not of the same
   * class file: retransformation hands the transformer bytes the JVM rebuilds, whose hash differs.)
   */
  public boolean samePlace(LoopSite other) {
    return className.equals(other.className) && method.equals(other.method) && descriptor.equals(other.descriptor)
        && line == other.line;
  }

  public static LoopSite rejected(String className, String method, String descriptor, int line, String kind, String reason) {
    return new LoopSite(className, method, descriptor, line, kind, null, null, reason);
  }

  @Override
  public String toString() {
    return className + "." + method + (line >= 0 ? ":" + line : "") + " " + kind
        + (accepted() ? "" : " rejected: " + reason);
  }

  // Written out: see package-info, "equals and hashCode".
  @Override
  public boolean equals(Object o) {
    return o instanceof LoopSite s && line == s.line && readsBeforeWrites == s.readsBeforeWrites
        && Objects.equals(className, s.className) && Objects.equals(method, s.method)
        && Objects.equals(descriptor, s.descriptor) && Objects.equals(kind, s.kind) && Objects.equals(template, s.template)
        && Objects.equals(shape, s.shape) && Objects.equals(reason, s.reason) && parallel.equals(s.parallel)
        && Objects.equals(classHash, s.classHash);
  }

  @Override
  public int hashCode() {
    return Objects.hash(className, method, descriptor, line, kind, template, shape, reason, readsBeforeWrites,
        parallel, classHash);
  }
}
