package io.looplift.runtime;

import io.looplift.executors.ExecutionOptions;
import io.looplift.ir.Call;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Node;
import io.looplift.ir.Nodes;
import io.looplift.ir.ReduceOp;
import io.looplift.ir.Reduction;
import io.looplift.ir.Type;
import io.looplift.progen.opencl.OpenClFunctions;

/**
 * The {@link Bound}s verify mode checks one template's results with under the user's options. Exact
 * wherever the options promise Java's results: integers always, and floating-point values unless one of the
 * two relaxations applies to them.
 *
 * <p>{@code precision=ulp} relaxes the floating-point values of a template that calls a function OpenCL
 * computes within a few ulp instead of exactly ({@link OpenClFunctions}: at most 17 ulp, for {@code pow}).
 * Such an error grows through the arithmetic after the call by that arithmetic's condition number, which no
 * bound can know, so the check is a coarse one: a value must agree with the reference to half its
 * significand, {@code abs = scale = 2^-12} for float and {@code 2^-26} for double. That is some 2^11 times
 * (float) and 2^25 times (double) what a 17-ulp error reaches through well-conditioned arithmetic, while
 * every gross error (a wrong index, operator, type or uninitialized element) lands far outside it. The
 * {@code abs} term admits values near zero that come from cancelling values near one. A false alarm costs
 * speed, never results: the program gets the reference's value, and the kernel moves to the next executor.
 *
 * <p>{@code reductions=reassociate} relaxes floating-point sums and products that executors may split into
 * parallel partials. Any two summation orders of {@code n} terms differ by at most {@code 2 g S}, with
 * {@code g = (1 + u)^n - 1} (about {@code n u}; u = 2^-24 for float, 2^-53 for double) and {@code S} the sum
 * of the terms' magnitudes, the initial value's included: the README's {@code 2(n-1) u Σ|x|}, in a form that
 * holds for any {@code n}. {@code S} comes from the reference run itself (it sums {@code |x|} beside the sum,
 * see {@link ReferenceRun}), and since that sum of magnitudes rounds too, it is divided by {@code 1 - g}.
 * A product of {@code n} factors differs by at most {@code 2 g / (1 - g)} relative to the reference's.
 * With both options, a sum also admits each term's own relaxation: {@code scale S + n abs}.
 */
final class Tolerance {
  static final double FLOAT_RELAXED = 0x1p-12;
  static final double DOUBLE_RELAXED = 0x1p-26;

  private final boolean relaxedValues;
  private final boolean reassociate;

  private Tolerance(boolean relaxedValues, boolean reassociate) {
    this.relaxedValues = relaxedValues;
    this.reassociate = reassociate;
  }

  static Tolerance of(LoopTemplate t, ExecutionOptions options) {
    return new Tolerance(options.ulp() && callsRelaxedFunction(t), options.reassociate());
  }

  private static boolean callsRelaxedFunction(LoopTemplate t) {
    for (Node n : Nodes.postOrder(t.roots())) {
      if (n instanceof Call c && OpenClFunctions.of(c).map(f -> !f.exact()).orElse(true)) return true;
    }
    return false;
  }

  /** The bound of a value of type {@code t} a store writes (or a reduction's term). */
  Bound value(Type t) {
    if (!relaxedValues || !t.isFloating()) return Bound.EXACT;
    double s = t == Type.FLOAT ? FLOAT_RELAXED : DOUBLE_RELAXED;
    return new Bound(s, s);
  }

  /** True when the bound of {@code r} needs the sum of its terms' magnitudes from the reference run. */
  boolean needsMagnitude(Reduction r) {
    return sums(r) && (reassociates(r) || relaxedValues);
  }

  /**
   * The bound of reduction {@code r}'s result over {@code trips} iterations; {@code magnitude} is the sum
   * of its terms' magnitudes when {@link #needsMagnitude} (else ignored).
   */
  Bound reduction(Reduction r, int trips, double magnitude) {
    Type t = r.type();
    if (!t.isFloating()) return Bound.EXACT;
    double abs = 0;
    double scale = 0;
    if (reassociates(r)) {
      double g = Math.expm1(trips * Math.log1p(t == Type.FLOAT ? 0x1p-24 : 0x1p-53));
      double order = g < 1 ? 2 * g / (1 - g) : Double.POSITIVE_INFINITY;
      if (r.op() != ReduceOp.ADD) {
        scale += order;
      } else if (magnitude != 0) { // all terms zero: the sums are equal, and infinity times 0 is NaN
        abs += order * magnitude;
      }
    }
    Bound term = value(t);
    if (!term.exact()) {
      if (sums(r)) {
        abs += term.scale() * magnitude + trips * term.abs();
      } else {
        abs += term.abs();
        scale += term.scale();
      }
    }
    return new Bound(abs, scale);
  }

  private boolean reassociates(Reduction r) {
    return reassociate && r.isSplittable() && r.op().reassociates(r.type());
  }

  /** A floating-point sum with a term: its error is bounded through the terms' magnitudes. */
  private static boolean sums(Reduction r) {
    return r.op() == ReduceOp.ADD && r.element() != null && r.type().isFloating();
  }
}
