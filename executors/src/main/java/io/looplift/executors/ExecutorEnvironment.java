package io.looplift.executors;

import java.nio.file.Path;

/**
 * What every executor is opened with: the user's choices and where the run keeps its files.
 *
 * @param options what results may differ in ({@code precision}, {@code reductions})
 * @param cacheDir where compiled programs persist between runs, or null for no disk cache
 * @param version the LoopLift version, part of every persisted key
 * @param threads how many threads a CPU executor may use, the calling thread included
 */
public record ExecutorEnvironment(ExecutionOptions options, Path cacheDir, String version, int threads) {
  public ExecutorEnvironment {
    if (threads < 1) throw new IllegalArgumentException("threads " + threads);
  }
}
