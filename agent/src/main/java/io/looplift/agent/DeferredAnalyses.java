package io.looplift.agent;

import io.looplift.profiler.Profiler;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;

/**
 * Where the transformer's rewriter leaves the analyses that only a report needs: those of loops the
 * pre-scan expects the analyzer to reject. They wait, small (a name and a weak reference each), until a
 * report is made — at exit with {@code report=} or {@code log=info}, by the attach CLI or the MBean — and
 * then run on that report's thread, before it is built. A program that asks for no report never pays for
 * them: neither the analysis on a class-loading thread nor the compiler time the analysis code would
 * cost once hot. Thread-safe.
 */
final class DeferredAnalyses implements Executor {
  private final Profiler profiler;
  private final Queue<Runnable> waiting = new ConcurrentLinkedQueue<>();

  DeferredAnalyses(Profiler profiler) {
    this.profiler = profiler;
  }

  /** Keeps {@code task} until {@link #runAll}; it must not throw. */
  @Override
  public void execute(Runnable task) {
    waiting.add(task);
  }

  /**
   * Runs every analysis waiting, each counted in the profiler. Serialized, so that a report made while
   * another runs them still sees them all done.
   */
  synchronized void runAll() {
    for (Runnable task; (task = waiting.poll()) != null; ) {
      long start = System.nanoTime();
      try {
        task.run();
      } finally {
        profiler.analysisDeferred(System.nanoTime() - start);
      }
    }
  }
}
