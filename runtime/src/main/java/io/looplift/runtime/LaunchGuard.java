package io.looplift.runtime;

import io.looplift.ir.AffineIndex;
import io.looplift.ir.Const;
import io.looplift.ir.Interpreter;
import io.looplift.ir.Load;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Node;
import io.looplift.ir.Nodes;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The run-time guards of a loop launch: every array non-null and of its element type, every access in
 * bounds over the whole range, and a written array passed twice only where the loop reads before it writes
 * and touches the same element through both. What a template needs for them is worked out once per site.
 * Arrays may be {@link TempArray} placeholders, checked by their type and length. Thread-safe.
 */
final class LaunchGuard {
  private final Map<Integer, Plan> plans = new ConcurrentHashMap<>();

  /** One array access of a template: scale and invariant offset, the offset pre-evaluated when constant. */
  private record Access(int array, long scale, Node offset, boolean constant, long constantOffset) {}

  /** The accesses of a template to bounds-check (or why they cannot be checked), and which arrays it writes. */
  private record Plan(List<Access> accesses, String unchecked, boolean[] written) {}

  /**
   * Null when launch may run anywhere with Java's results, else a reason a user can read.
   *
   * @param trips at least 1
   */
  String check(int siteId, LoopTemplate t, boolean readsBeforeWrites, Object[] arrays, long[] params, long[] accs,
      int start, int step, long trips) {
    List<Type> types = t.arrays();
    for (int a = 0; a < types.size(); a++) {
      Object x = arrays[a];
      if (x == null) return "array " + a + " is null";
      Type expected = types.get(a);
      if (x instanceof TempArray temp ? temp.elementType != expected : x.getClass() != arrayClass(expected)) {
        String actual = x instanceof TempArray temp ? temp.elementType.name().toLowerCase() + "[]"
            : x.getClass().getSimpleName();
        return "array " + a + " is a " + actual + ", not a " + arrayClass(expected).getSimpleName();
      }
    }
    Plan plan = plans.get(siteId);
    if (plan == null) plan = plans.computeIfAbsent(siteId, k -> planOf(t));
    if (plan.unchecked() != null) return plan.unchecked();
    long[] offsets = new long[plan.accesses().size()];
    Interpreter in = null;
    for (int k = 0; k < offsets.length; k++) {
      Access access = plan.accesses().get(k);
      if (access.constant()) {
        offsets[k] = access.constantOffset();
        continue;
      }
      if (in == null) in = new Interpreter(arrays, params, accs);
      try {
        offsets[k] = (int) in.evaluate(access.offset(), 0);
      } catch (RuntimeException e) {
        // Such as a division by zero: the original loop throws it where Java would.
        return "the index offset into array " + access.array() + " cannot be evaluated: " + e;
      }
    }
    for (int a = 0; a < types.size(); a++) {
      if (!plan.written()[a]) continue;
      for (int b = 0; b < types.size(); b++) {
        if (b != a && arrays[a] == arrays[b] && !(readsBeforeWrites && sameElements(plan, offsets, a, b))) {
          return "array " + a + " is written and is also array " + b + " at another element or order";
        }
      }
    }
    long first = start;
    long last = start + (trips - 1) * step;
    for (int k = 0; k < offsets.length; k++) {
      Access access = plan.accesses().get(k);
      int a = access.array();
      long length = TempArray.lengthOf(arrays[a]);
      try {
        long lo = Math.addExact(Math.multiplyExact(access.scale(), first), offsets[k]);
        long hi = Math.addExact(Math.multiplyExact(access.scale(), last), offsets[k]);
        if (Math.min(lo, hi) >= 0 && Math.max(lo, hi) < length) continue;
      } catch (ArithmeticException e) {
        // Out of long range is out of bounds.
      }
      return "index out of bounds on array " + a;
    }
    return null;
  }

  /** Every load and store index of {@code t}, decomposed into scale and invariant offset. */
  private static Plan planOf(LoopTemplate t) {
    boolean[] written = t.writtenArrays();
    List<Access> accesses = new ArrayList<>();
    for (Node n : Nodes.postOrder(t.roots())) {
      if (n instanceof Load l) {
        Access a = access(l.array(), l.index());
        if (a == null) return new Plan(List.of(), "the index into array " + l.array() + " is not affine", written);
        accesses.add(a);
      }
    }
    for (Store s : t.stores()) {
      Access a = access(s.array(), s.index());
      if (a == null) return new Plan(List.of(), "the index into array " + s.array() + " is not affine", written);
      accesses.add(a);
    }
    return new Plan(List.copyOf(accesses), null, written);
  }

  private static Access access(int array, Node index) {
    AffineIndex ai = AffineIndex.of(index);
    if (ai == null) return null;
    boolean constant = ai.offset() instanceof Const;
    return new Access(array, ai.scale(), ai.offset(), constant, constant ? ((Const) ai.offset()).intValue() : 0);
  }

  /** True when every access to arrays {@code a} and {@code b} touches the same element in each iteration. */
  private static boolean sameElements(Plan plan, long[] offsets, int a, int b) {
    Access ref = null;
    long refOffset = 0;
    for (int k = 0; k < offsets.length; k++) {
      Access x = plan.accesses().get(k);
      if (x.array() != a && x.array() != b) continue;
      if (ref == null) {
        ref = x;
        refOffset = offsets[k];
      } else if (x.scale() != ref.scale() || offsets[k] != refOffset) {
        return false;
      }
    }
    return true;
  }

  static Class<?> arrayClass(Type t) {
    return switch (t) {
      case BOOLEAN -> boolean[].class;
      case BYTE -> byte[].class;
      case CHAR -> char[].class;
      case SHORT -> short[].class;
      case INT -> int[].class;
      case LONG -> long[].class;
      case FLOAT -> float[].class;
      case DOUBLE -> double[].class;
    };
  }
}
