package io.looplift.analyzer;

/**
 * What the rewriter bakes into rewritten code.
 *
 * @param minLength loops with fewer iterations than this run as the original bytecode without calling the
 *     pipeline (0: every recognized loop goes through it)
 */
public record RewriteOptions(int minLength) {
  public RewriteOptions {
    if (minLength < 0) throw new IllegalArgumentException("min.length " + minLength);
  }
}
