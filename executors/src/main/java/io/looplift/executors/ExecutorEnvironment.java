package io.looplift.executors;

import java.nio.file.Path;

/**
 * What every executor is opened with: the user's choices and where the run keeps its files.
 *
 * @param options what results may differ in ({@code precision}, {@code reductions})
 * @param cacheDir where compiled programs persist between runs, or null for no disk cache
 * @param version the LoopLift version, part of every persisted key
 * @param threads how many threads a CPU executor may use, the calling thread included
 * @param log where executors report what happens after they were opened
 */
public record ExecutorEnvironment(ExecutionOptions options, Path cacheDir, String version, int threads, ExecutorLog log) {
  public ExecutorEnvironment {
    if (threads < 1) throw new IllegalArgumentException("threads " + threads);
    if (log == null) throw new IllegalArgumentException("no log");
  }

  /** An environment whose executors log nothing. */
  public ExecutorEnvironment(ExecutionOptions options, Path cacheDir, String version, int threads) {
    this(options, cacheDir, version, threads, ExecutorLog.NONE);
  }
}
