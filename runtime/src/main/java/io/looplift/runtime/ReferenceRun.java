package io.looplift.runtime;

import io.looplift.executors.ExecutionException;
import io.looplift.executors.ExecutionOptions;
import io.looplift.executors.Executor;
import io.looplift.executors.Launch;
import io.looplift.ir.Acc;
import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Evaluator;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Node;
import io.looplift.ir.ReduceOp;
import io.looplift.ir.Reduction;
import io.looplift.ir.Type;
import io.looplift.ir.Unary;
import io.looplift.ir.UnaryOp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The reference executor's run of a launch on a {@link LaunchCopy}: the arrays of the copy hold its results
 * afterwards, and {@link #accumulator} its reduction values. Where the {@link Tolerance} of a sum depends on
 * the magnitudes of its terms, the same run also sums {@code |term|} (from the magnitude of the initial value)
 * in an extra accumulator, so that the bound costs no second pass.
 */
final class ReferenceRun {
  private final LoopTemplate template;
  private final long[] accumulators;
  /** Per reduction of the launch's template, the accumulator that sums its terms' magnitudes, or -1. */
  private final int[] magnitudes;

  private ReferenceRun(LoopTemplate template, long[] accumulators, int[] magnitudes) {
    this.template = template;
    this.accumulators = accumulators;
    this.magnitudes = magnitudes;
  }

  /**
   * Runs {@code launch}'s work on {@code copy} with {@code reference}, which computes Java's results.
   *
   * @throws ExecutionException when the reference executor could not run it
   */
  static ReferenceRun of(Executor reference, Launch launch, LaunchCopy copy, Tolerance tolerance)
      throws ExecutionException {
    LoopTemplate t = launch.template();
    List<Type> types = new ArrayList<>(t.accumulators());
    List<Reduction> reductions = new ArrayList<>(t.reductions());
    long[] initial = Arrays.copyOf(copy.accumulators(), types.size() + t.reductions().size());
    int[] magnitudes = new int[t.reductions().size()];
    for (int k = 0; k < magnitudes.length; k++) {
      Reduction r = t.reductions().get(k);
      magnitudes[k] = -1;
      if (!tolerance.needsMagnitude(r)) continue;
      int acc = types.size();
      Node term = Unary.of(UnaryOp.ABS, r.element());
      types.add(r.type());
      reductions.add(new Reduction(acc, r.type(), Binary.of(BinaryOp.ADD, new Acc(acc, r.type()), term), ReduceOp.ADD, term));
      initial[acc] = Evaluator.unary(UnaryOp.ABS, r.type(), initial[r.acc()]);
      magnitudes[k] = acc;
    }
    LoopTemplate run = types.size() == t.accumulators().size() ? t
        : new LoopTemplate(t.arrays(), t.params(), types, t.body(), reductions, t.rowArrays(), t.ordered());
    long[] accumulators = Arrays.copyOf(initial, types.size());
    reference.execute(new Launch(run, copy.arrays(), launch.params(), accumulators, launch.start(), launch.step(),
        launch.trips()), ExecutionOptions.EXACT);
    return new ReferenceRun(t, accumulators, magnitudes);
  }

  /** The reference's value of accumulator {@code acc} of the launch's template, as raw bits. */
  long accumulator(int acc) {
    return accumulators[acc];
  }

  /** Copies the reference's values of the launch's accumulators into {@code target}. */
  void copyAccumulators(long[] target) {
    System.arraycopy(accumulators, 0, target, 0, template.accumulators().size());
  }

  /** The sum of the magnitudes of reduction {@code k}'s terms, or 0 when its bound does not need it. */
  double magnitude(int k) {
    if (magnitudes[k] < 0) return 0;
    long bits = accumulators[magnitudes[k]];
    return template.reductions().get(k).type() == Type.FLOAT ? Float.intBitsToFloat((int) bits)
        : Double.longBitsToDouble(bits);
  }
}
