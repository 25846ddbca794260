package io.looplift.analyzer;

/**
 * What the rewriter bakes into rewritten code, and which recognized loops it leaves as they are.
 *
 * @param minLength loops with fewer iterations than this run as the original bytecode without calling the
 *     pipeline (0: every recognized loop goes through it)
 * @param rejectsSequential whether a loop whose launches no executor could split is rejected (with
 *     {@code executor=auto} by measurement and {@code reductions=ordered}): a floating-point reduction kept in
 *     Java's order leaves an executor nothing to run in parallel, so it could only run the same sequential
 *     loop the JIT-compiled original runs, after paying for its rewrite and for measuring it
 */
public record RewriteOptions(int minLength, boolean rejectsSequential) {
  public RewriteOptions {
    if (minLength < 0) throw new IllegalArgumentException("min.length " + minLength);
  }

  /** Options that reject no loop the analyzer takes. */
  public RewriteOptions(int minLength) {
    this(minLength, false);
  }

  /**
   * The record's own form, written out: the generated one is linked through an invokedynamic bootstrap that
   * took 20 ms of the agent's start, where the analysis memo names its options.
   */
  @Override
  public String toString() {
    return "RewriteOptions[minLength=" + minLength + ", rejectsSequential=" + rejectsSequential + "]";
  }
}
