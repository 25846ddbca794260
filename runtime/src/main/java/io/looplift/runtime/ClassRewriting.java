package io.looplift.runtime;

import java.util.function.Consumer;

/**
 * Rewrites a loaded class again from its original bytes, the way the agent does by retransformation. The
 * rewriter then asks the pipeline's {@link Pipeline#sites() site registry} afresh which loops to take.
 */
@FunctionalInterface
public interface ClassRewriting {
  /** Where classes cannot be rewritten again: says so at once. */
  ClassRewriting NONE = (c, before, done) -> done.accept("classes cannot be rewritten again here");

  /**
   * Rewrites class {@code c} again, later and on another thread, running {@code before} just before; tells
   * {@code done} null once that is done, or why it was not. Never throws.
   */
  void rewriteAgain(Class<?> c, Runnable before, Consumer<String> done);
}
