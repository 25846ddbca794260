package io.looplift.runtime;

import io.looplift.ir.Binary;
import io.looplift.ir.Call;
import io.looplift.ir.Compare;
import io.looplift.ir.Const;
import io.looplift.ir.Convert;
import io.looplift.ir.Evaluator;
import io.looplift.ir.Node;
import io.looplift.ir.Nodes;
import io.looplift.ir.Param;
import io.looplift.ir.Select;
import io.looplift.ir.Unary;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * The invariant nodes of a site's guards (index constants and coefficients, loop bounds), compiled once into
 * a straight-line program: slot {@code k} holds node {@code k}'s value, a constant's from compile time, any
 * other's computed by a step from the launch's parameters and earlier slots with {@link Evaluator}'s
 * semantics. A launch thus evaluates them without the IR interpreter and without allocating, and a site whose
 * indices are all constant (most flat loops) only copies them. Immutable and thread-safe; the slots belong to
 * the caller.
 */
final class InvariantCode {
  /** One node's value (raw bits) from the slots of its operands and the launch's parameters. */
  @FunctionalInterface
  interface Step {
    long eval(long[] slots, long[] params);
  }

  /** By slot: a constant's value, else 0. */
  private final long[] constants;
  /** The slots computed per launch, in order, and their steps. */
  private final int[] computed;
  private final Step[] steps;

  private InvariantCode(long[] constants, int[] computed, Step[] steps) {
    this.constants = constants;
    this.computed = computed;
    this.steps = steps;
  }

  /** How many slots {@link #evaluate} fills. */
  int size() {
    return constants.length;
  }

  /**
   * Fills {@code slots[0 .. size())} for one launch.
   *
   * @throws ArithmeticException where Java would, such as an integer division by zero
   */
  void evaluate(long[] params, long[] slots) {
    System.arraycopy(constants, 0, slots, 0, constants.length);
    for (int k = 0; k < steps.length; k++) slots[computed[k]] = steps[k].eval(slots, params);
  }

  /** Gives each invariant node a slot, its operands first; shared nodes get one slot. Not thread-safe. */
  static final class Builder {
    private final Map<Node, Integer> slots = new HashMap<>();
    /** By slot: the step computing it, or null for a constant. */
    private final List<Step> steps = new ArrayList<>();
    private final List<Long> constants = new ArrayList<>();

    /**
     * The slot of {@code n}, compiling it and what it reads on first use.
     *
     * @throws IllegalArgumentException when {@code n} reads a loop variable, an element or an accumulator
     */
    int slot(Node n) {
      Integer known = slots.get(n);
      if (known != null) return known;
      for (Node x : Nodes.postOrder(List.of(n))) {
        if (!slots.containsKey(x)) {
          steps.add(x instanceof Const ? null : step(x));
          constants.add(x instanceof Const c ? c.bits() : 0L);
          slots.put(x, steps.size() - 1);
        }
      }
      return slots.get(n);
    }

    InvariantCode build() {
      int[] computed = IntStream.range(0, steps.size()).filter(k -> steps.get(k) != null).toArray();
      Step[] code = IntStream.of(computed).mapToObj(steps::get).toArray(Step[]::new);
      return new InvariantCode(constants.stream().mapToLong(Long::longValue).toArray(), computed, code);
    }

    private Step step(Node n) {
      if (n instanceof Param param) {
        int k = param.index();
        return (s, p) -> p[k];
      }
      if (n instanceof Unary u) {
        int x = slots.get(u.x());
        return (s, p) -> Evaluator.unary(u.op(), u.x().type(), s[x]);
      }
      if (n instanceof Binary b) {
        int x = slots.get(b.x());
        int y = slots.get(b.y());
        return (s, p) -> Evaluator.binary(b.op(), b.x().type(), s[x], s[y]);
      }
      if (n instanceof Compare c) {
        int x = slots.get(c.x());
        int y = slots.get(c.y());
        return (s, p) -> c.cond().test(Long.compare(s[x], s[y])) ? 1 : 0;
      }
      if (n instanceof Select sel) {
        int c = slots.get(sel.cond());
        int x = slots.get(sel.ifTrue());
        int y = slots.get(sel.ifFalse());
        return (s, p) -> s[c] != 0 ? s[x] : s[y];
      }
      if (n instanceof Convert c) {
        int x = slots.get(c.x());
        return (s, p) -> Evaluator.convert(c.x().type(), c.to(), s[x]);
      }
      if (n instanceof Call c) {
        int[] args = new int[c.args().size()];
        for (int k = 0; k < args.length; k++) args[k] = slots.get(c.args().get(k));
        return InvariantCalls.step(c, args);
      }
      throw new IllegalArgumentException("not invariant: " + n);
    }
  }
}
