package io.looplift.executors.opencl;

import io.looplift.executors.Launch;
import io.looplift.ir.Affine;
import io.looplift.ir.Index;
import io.looplift.ir.Interpreter;
import io.looplift.ir.Loop;
import io.looplift.ir.LoopVar;
import io.looplift.ir.Node;
import java.util.HashMap;
import java.util.Map;

/**
 * Bounds on the values that the int expressions of a template take over one launch, so that results are
 * copied back only over the elements stores can reach. An expression affine in the loop variables
 * ({@link Affine}) lies between the ends its coefficients and its variables' ranges give: the outermost
 * loop's variable runs from its first to its last value, and an inner loop's from its least start to its
 * greatest limit, as far as those are affine in the variables of the loops around it. The bounds may be
 * wider than what the launch reaches (a strided index, a loop that does not run), never narrower: guards
 * make every access land on the element its affine form names. Not thread-safe; one per launch.
 */
final class Reach {
  private final Interpreter invariants;
  private final Map<Node, long[]> ranges = new HashMap<>();

  /** The bounds of {@code launch}, which has at least one iteration. */
  Reach(Launch launch) {
    this.invariants = new Interpreter(launch.arrays(), launch.params(), launch.accumulators().clone());
    long first = launch.start();
    long last = launch.start() + (long) (launch.trips() - 1) * launch.step();
    ranges.put(Index.I, new long[] {Math.min(first, last), Math.max(first, last)});
    for (Loop l : launch.template().loops()) { // each after the loops around it
      long[] range = range(l);
      if (range != null) ranges.put(new LoopVar(l.id()), range);
    }
  }

  /** {@code [least, greatest]} of the values {@code n} takes, or null when this cannot bound it. */
  long[] of(Node n) {
    Affine a = Affine.of(n);
    if (a == null) return null;
    try {
      long lo = invariant(a.constant());
      long hi = lo;
      for (Map.Entry<Node, Node> term : a.coefficients().entrySet()) {
        long[] range = ranges.get(term.getKey());
        if (range == null) return null;
        long k = invariant(term.getValue());
        long x = Math.multiplyExact(k, range[0]);
        long y = Math.multiplyExact(k, range[1]);
        lo = Math.addExact(lo, Math.min(x, y));
        hi = Math.addExact(hi, Math.max(x, y));
      }
      return new long[] {lo, hi};
    } catch (ArithmeticException e) {
      return null;
    }
  }

  private long invariant(Node n) {
    return (int) invariants.evaluate(n, 0); // constants and parameters only: the same in every iteration
  }

  /** The values loop {@code l}'s variable can take, or null when unknown (or when the loop never runs). */
  private long[] range(Loop l) {
    long[] start = of(l.start());
    long[] limit = of(l.limit());
    if (start == null || limit == null) return null;
    long[] r = switch (l.cond()) {
      case LT -> new long[] {start[0], limit[1] - 1};
      case LE -> new long[] {start[0], limit[1]};
      case GT -> new long[] {limit[0] + 1, start[1]};
      case GE -> new long[] {limit[0], start[1]};
      case NE -> l.step() > 0 ? new long[] {start[0], limit[1] - 1} : new long[] {limit[0] + 1, start[1]};
      case EQ -> null; // never counts, so never offloaded
    };
    return r == null || r[0] > r[1] ? null : r;
  }
}
