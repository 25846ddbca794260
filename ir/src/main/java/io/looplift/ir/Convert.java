package io.looplift.ir;

/**
 * A JVM primitive conversion ({@code i2l}, {@code d2i}, {@code i2b}...). Converting to BYTE, SHORT or
 * CHAR truncates and re-widens to INT, as {@code i2b}, {@code i2s}, {@code i2c} do; float-to-integer
 * conversions saturate and map NaN to 0.
 */
public record Convert(Node x, Type to) implements Node {
  public Convert {
    if (!x.type().isIntegral() && !x.type().isFloating() || to == Type.BOOLEAN) {
      throw new IllegalArgumentException("convert " + x.type() + " to " + to);
    }
  }

  /** Builds the conversion, folding constants and no-op conversions. */
  public static Node of(Node x, Type to) {
    if (x.type() == to) return x;
    if (x instanceof Const c) return Const.ofBits(to.stackType(), Evaluator.convert(x.type(), to, c.bits()));
    return new Convert(x, to);
  }

  @Override
  public Type type() { return to.stackType(); }

  @Override
  public String toString() { return "(" + to.name().toLowerCase() + ") " + x; }
}
