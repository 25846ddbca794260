package io.looplift.executors.reference;

import io.looplift.executors.ExecutionOptions;
import io.looplift.executors.Executor;
import io.looplift.executors.Launch;
import io.looplift.ir.Evaluator;
import io.looplift.ir.Interpreter;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Node;
import io.looplift.ir.Reduction;
import io.looplift.ir.Store;
import java.util.List;
import java.util.Map;

/**
 * The ground truth: runs each iteration in order through the {@link io.looplift.ir.Interpreter}, then
 * performs the stores in template order and assigns every reduction update at once. Slow and obviously
 * right; used by verify mode, by tests and as the executor of last resort. Thread-safe (no state).
 */
public final class ReferenceExecutor implements Executor {
  @Override
  public String name() { return "reference"; }

  @Override
  public boolean supports(LoopTemplate template, ExecutionOptions options) { return true; }

  /** Runs the launch; accumulators are written only after the last iteration. */
  @Override
  public void execute(Launch launch, ExecutionOptions options) {
    LoopTemplate t = launch.template();
    List<Node> roots = t.roots();
    List<Reduction> reductions = t.reductions();
    long[] accs = launch.accumulators().clone();
    long[] next = new long[accs.length];
    Interpreter interpreter = new Interpreter(launch.arrays(), launch.params(), accs);
    for (int k = 0; k < launch.trips(); k++) {
      int i = launch.start() + k * launch.step();
      Map<Node, Long> v = interpreter.evaluate(roots, i);
      for (Store s : t.stores()) {
        if (v.get(s.predicate()) != 0) {
          Evaluator.store(launch.arrays()[s.array()], s.elementType(), (int) (long) v.get(s.index()), v.get(s.value()));
        }
      }
      for (Reduction r : reductions) next[r.acc()] = v.get(r.update());
      for (Reduction r : reductions) accs[r.acc()] = next[r.acc()];
    }
    System.arraycopy(accs, 0, launch.accumulators(), 0, accs.length);
  }

  @Override
  public void close() {}
}
