package io.looplift.apps.wrongkernel;

import io.looplift.executors.ExecutionOptions;
import io.looplift.executors.Executor;
import io.looplift.executors.Launch;
import io.looplift.executors.reference.ReferenceExecutor;
import io.looplift.ir.Evaluator;
import io.looplift.ir.Interpreter;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Store;

/**
 * Computes a flat launch right, then spoils one value: the element its first store writes in the launch's
 * first iteration, or, without stores, its first reduction value, raised by one in its raw bits (one ulp for
 * floating-point values, one for integers). Declines loop nests, which then run on the next executor.
 */
final class OffByOneExecutor implements Executor {
  private final ReferenceExecutor exact = new ReferenceExecutor();

  @Override
  public String name() { return OffByOneExecutorProvider.NAME; }

  @Override
  public boolean supports(LoopTemplate template, ExecutionOptions options) {
    return template.isFlat();
  }

  @Override
  public void execute(Launch launch, ExecutionOptions options) {
    exact.execute(launch, options);
    if (launch.trips() == 0) return;
    LoopTemplate t = launch.template();
    if (!t.stores().isEmpty()) {
      Store s = t.stores().get(0);
      Interpreter at = new Interpreter(launch.arrays(), launch.params(), launch.accumulators().clone());
      int index = (int) at.evaluate(s.index(), launch.start());
      Object array = launch.arrays()[s.array()];
      Evaluator.store(array, s.elementType(), index, Evaluator.load(array, s.elementType(), index) + 1);
    } else if (!t.reductions().isEmpty()) {
      launch.accumulators()[t.reductions().get(0).acc()] += 1;
    }
  }

  @Override
  public void close() {}
}
