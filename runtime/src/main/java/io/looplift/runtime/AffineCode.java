package io.looplift.runtime;

import io.looplift.ir.Affine;
import io.looplift.ir.Node;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * An {@link Affine} int expression compiled against a site's {@link InvariantCode}: the slot of its constant
 * and, per term, a loop variable (0 for the outermost loop's, {@code k} for the {@code k}-th inner loop of the
 * template in pre-order) and the slot of its coefficient. Evaluated in long arithmetic from the slots of one
 * launch: as {@link Affine} explains, wherever that exact value lies within an array's bounds it is the
 * element Java's wrapping int arithmetic selects. Immutable.
 */
final class AffineCode {
  private final int constant;
  private final int[] vars;
  private final int[] coefs;

  private AffineCode(int constant, int[] vars, int[] coefs) {
    this.constant = constant;
    this.vars = vars;
    this.coefs = coefs;
  }

  /** Compiles {@code a}, its invariants into {@code code}, its variables numbered by {@code varOf}. */
  static AffineCode of(Affine a, InvariantCode.Builder code, ToIntFunction<Node> varOf) {
    int[] vars = new int[a.coefficients().size()];
    int[] coefs = new int[vars.length];
    int k = 0;
    for (Map.Entry<Node, Node> term : a.coefficients().entrySet()) {
      vars[k] = varOf.applyAsInt(term.getKey());
      coefs[k++] = code.slot(term.getValue());
    }
    return new AffineCode(code.slot(a.constant()), vars, coefs);
  }

  /**
   * The least value over the box {@code lo[v] <= v <= hi[v]}.
   *
   * @throws ArithmeticException when it leaves the long range (it is then far outside any array)
   */
  long min(long[] slots, long[] lo, long[] hi) {
    long sum = slots[constant];
    for (int k = 0; k < vars.length; k++) {
      long c = slots[coefs[k]];
      // An int coefficient times an int variable fits in a long; only the sum can overflow.
      sum = Math.addExact(sum, c * (c >= 0 ? lo[vars[k]] : hi[vars[k]]));
    }
    return sum;
  }

  /**
   * The greatest value over the box {@code lo[v] <= v <= hi[v]}.
   *
   * @throws ArithmeticException when it leaves the long range
   */
  long max(long[] slots, long[] lo, long[] hi) {
    long sum = slots[constant];
    for (int k = 0; k < vars.length; k++) {
      long c = slots[coefs[k]];
      sum = Math.addExact(sum, c * (c >= 0 ? hi[vars[k]] : lo[vars[k]]));
    }
    return sum;
  }

  /** The value of the constant term in a launch. */
  long constant(long[] slots) {
    return slots[constant];
  }

  /** The value of the coefficient of variable {@code var} in a launch: 0 where it does not appear. */
  long coefficient(int var, long[] slots) {
    for (int k = 0; k < vars.length; k++) {
      if (vars[k] == var) return slots[coefs[k]];
    }
    return 0;
  }

  /** True when variable {@code var} appears. */
  boolean uses(int var) {
    for (int v : vars) {
      if (v == var) return true;
    }
    return false;
  }

  /** True when an inner loop's variable appears. */
  boolean usesInnerVariables() {
    for (int v : vars) {
      if (v > 0) return true;
    }
    return false;
  }

  /** True when no variable appears: one value for the whole launch. */
  boolean isInvariant() {
    return vars.length == 0;
  }

  /** True when every variable that appears is in {@code scope}, indexed by variable. */
  boolean within(boolean[] scope) {
    for (int v : vars) {
      if (!scope[v]) return false;
    }
    return true;
  }
}
