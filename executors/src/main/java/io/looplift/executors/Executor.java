package io.looplift.executors;

import io.looplift.ir.LoopTemplate;

/**
 * Runs launches of loop templates. Implementations are thread-safe: launches from many program threads
 * may run at once.
 */
public interface Executor extends AutoCloseable {
  /** The name used in options and the report: {@code jvm}, {@code opencl}, {@code reference}. */
  String name();

  /** True when this executor can run {@code template} with results bit-identical to Java's under {@code options}. */
  boolean supports(LoopTemplate template, ExecutionOptions options);

  /**
   * Runs {@code launch} to completion: writes its stores into the arrays and its accumulator results
   * into {@link Launch#accumulators()}.
   *
   * @throws ExecutionException when the launch could not run; the executor must then not have written
   *     any array or accumulator, so that the caller can run the same work elsewhere
   */
  void execute(Launch launch, ExecutionOptions options) throws ExecutionException;

  /**
   * A session for the launches of one flush that keeps their arrays on this executor's device between them,
   * or null when the executor keeps nothing between launches (the default).
   */
  default FlushSession session() {
    return null;
  }

  /** Frees threads and device resources; launches after this fail. */
  @Override
  void close();
}
