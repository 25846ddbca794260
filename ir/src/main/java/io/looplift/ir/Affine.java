package io.looplift.ir;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An int expression as {@code constant + Σ coefficient(v) · v} over loop variables {@code v} ({@link Index}
 * and {@link LoopVar}s), where the constant and the coefficients are invariant: built from constants and
 * parameters only, so a launch knows their values before it runs. {@code i * n + j}, {@code 2 * i + 1},
 * {@code off + i * stride} and {@code n - 1 - i} are affine; {@code i * j} and {@code idx[i]} are not.
 * Because JVM int arithmetic wraps consistently, the element an affine index selects is the exact value of
 * the expression in long arithmetic whenever that value lies within an array's bounds: guards check those
 * bounds over the whole iteration space from the coefficients' values.
 *
 * @param coefficients by variable, in order of first appearance; a variable with coefficient 0 is absent
 */
public record Affine(Node constant, Map<Node, Node> coefficients) {
  public Affine {
    coefficients = Collections.unmodifiableMap(new LinkedHashMap<>(coefficients));
  }

  /** Decomposes {@code n}, or returns null when it is not affine in the loop variables. */
  public static Affine of(Node n) {
    if (n.type() != Type.INT) return null;
    if (n instanceof Index || n instanceof LoopVar) return new Affine(Const.ofInt(0), Map.of(n, Const.ofInt(1)));
    if (isInvariant(n)) return new Affine(n, Map.of());
    if (n instanceof Binary b) {
      switch (b.op()) {
        case ADD, SUB: {
          Affine x = of(b.x());
          Affine y = of(b.y());
          if (x != null && y != null) return x.plus(y, b.op());
          return null;
        }
        case MUL: {
          if (isInvariant(b.y())) {
            Affine x = of(b.x());
            return x == null ? null : x.times(b.y());
          }
          if (isInvariant(b.x())) {
            Affine y = of(b.y());
            return y == null ? null : y.times(b.x());
          }
          return null;
        }
        case SHL: {
          Affine x = of(b.x());
          if (x != null && b.y() instanceof Const c && (c.intValue() & 31) < 16) {
            return x.times(Const.ofInt(1 << (c.intValue() & 31)));
          }
          return null;
        }
        default:
          return null;
      }
    }
    if (n instanceof Unary u && u.op() == UnaryOp.NEG) {
      Affine x = of(u.x());
      return x == null ? null : x.times(Const.ofInt(-1));
    }
    return null;
  }

  /** The coefficient of variable {@code v}: the constant 0 when it does not appear. */
  public Node coefficient(Node v) {
    return coefficients.getOrDefault(v, Const.ofInt(0));
  }

  /** True when no loop variable appears. */
  public boolean isInvariant() {
    return coefficients.isEmpty();
  }

  private Affine plus(Affine y, BinaryOp op) {
    Map<Node, Node> c = new LinkedHashMap<>(coefficients);
    y.coefficients.forEach((v, k) -> {
      Node old = c.get(v);
      Node sum = old == null ? (op == BinaryOp.ADD ? k : Unary.of(UnaryOp.NEG, k)) : Binary.of(op, old, k);
      put(c, v, sum);
    });
    return new Affine(Binary.of(op, constant, y.constant), c);
  }

  private Affine times(Node k) {
    Map<Node, Node> c = new LinkedHashMap<>();
    coefficients.forEach((v, x) -> put(c, v, Binary.of(BinaryOp.MUL, x, k)));
    return new Affine(Binary.of(BinaryOp.MUL, constant, k), c);
  }

  private static void put(Map<Node, Node> c, Node v, Node k) {
    if (k instanceof Const z && z.intValue() == 0) c.remove(v);
    else c.put(v, k);
  }

  /** True when {@code n} has one value for a whole launch: it reads no loop variable, element or accumulator. */
  public static boolean isInvariant(Node n) {
    return !Nodes.anyMatch(n, x -> x instanceof Index || x instanceof LoopVar || x instanceof CarriedVar
        || x instanceof LoopOut || x instanceof Load || x instanceof Length || x instanceof Acc);
  }
}
