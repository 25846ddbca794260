package io.looplift.ir;

import java.util.Objects;

/**
 * An index expression decomposed as {@code scale * i + offset}, where {@code offset} reads no index,
 * load or accumulator (so it is the same in every iteration). Because JVM int arithmetic wraps
 * consistently, the element touched in iteration {@code i} is exactly {@code scale * (long) i + offset}
 * whenever that value lies in {@code [0, length)}: bounds over a range follow from its two ends.
 */
public record AffineIndex(long scale, Node offset) {

  /** Decomposes {@code index}, or returns null when it is not affine in the induction variable. */
  public static AffineIndex of(Node index) {
    if (index instanceof Index) return new AffineIndex(1, Const.ofInt(0));
    if (isInvariant(index)) return new AffineIndex(0, index);
    if (index instanceof Binary b) {
      AffineIndex x = of(b.x());
      AffineIndex y = b.op().isShift() ? null : of(b.y());
      switch (b.op()) {
        case ADD:
          if (x != null && y != null) return new AffineIndex(x.scale + y.scale, Binary.of(BinaryOp.ADD, x.offset, y.offset));
          break;
        case SUB:
          if (x != null && y != null) return new AffineIndex(x.scale - y.scale, Binary.of(BinaryOp.SUB, x.offset, y.offset));
          break;
        case MUL:
          if (x != null && b.y() instanceof Const c) return x.times(c.intValue());
          if (y != null && b.x() instanceof Const c) return y.times(c.intValue());
          break;
        case SHL:
          if (x != null && b.y() instanceof Const c && (c.intValue() & 31) < 16) return x.times(1 << (c.intValue() & 31));
          break;
        default:
          break;
      }
    }
    if (index instanceof Unary u && u.op() == UnaryOp.NEG) {
      AffineIndex x = of(u.x());
      if (x != null) return x.times(-1);
    }
    return null;
  }

  private AffineIndex times(int k) {
    return new AffineIndex(scale * k, Binary.of(BinaryOp.MUL, offset, Const.ofInt(k)));
  }

  /** True when {@code n} has the same value in every iteration (see {@link Affine#isInvariant(Node)}). */
  public static boolean isInvariant(Node n) {
    return Affine.isInvariant(n);
  }

  // Written out: see package-info, "equals and hashCode".
  @Override
  public boolean equals(Object o) { return o instanceof AffineIndex a && scale == a.scale && Objects.equals(offset, a.offset); }

  @Override
  public int hashCode() { return 31 * Long.hashCode(scale) + Objects.hashCode(offset); }
}
