package io.looplift.executors.reference;

import io.looplift.executors.ExecutionOptions;
import io.looplift.executors.Executor;
import io.looplift.executors.Launch;
import io.looplift.ir.Interpreter;
import io.looplift.ir.LoopTemplate;

/**
 * The ground truth: runs each iteration in order through the {@link io.looplift.ir.Interpreter}, then
 * performs the stores in template order and assigns every reduction update at once. Slow and obviously
 * right; used by verify mode, by tests and as the executor of last resort. Thread-safe (no state).
 */
public final class ReferenceExecutor implements Executor {
  /** The executor's name in options and the report. */
  public static final String NAME = "reference";

  @Override
  public String name() { return NAME; }

  @Override
  public boolean supports(LoopTemplate template, ExecutionOptions options) { return true; }

  /** Runs the launch; accumulators are written only after the last iteration. */
  @Override
  public void execute(Launch launch, ExecutionOptions options) {
    Interpreter.run(launch.template(), launch.arrays(), launch.params(), launch.accumulators(),
        launch.start(), launch.step(), launch.trips());
  }

  @Override
  public void close() {}
}
