package io.looplift.ir;

/**
 * A JVM primitive conversion ({@code i2l}, {@code d2i}, {@code i2b}...). Converting to BYTE, SHORT or
 * CHAR truncates and re-widens to INT, as {@code i2b}, {@code i2s}, {@code i2c} do; float-to-integer
 * conversions saturate and map NaN to 0.
 */
public final class Convert implements Node {
  private final Node x;
  private final Type to;
  private final int hash;

  public Convert(Node x, Type to) {
    boolean narrowing = to == Type.BYTE || to == Type.SHORT || to == Type.CHAR;
    // Narrowing a float or double to byte, short or char is two JVM steps (d2i, then i2b): javac emits both.
    if (!x.type().isIntegral() && !x.type().isFloating() || to == Type.BOOLEAN || (narrowing && x.type().isFloating())) {
      throw new IllegalArgumentException("convert " + x.type() + " to " + to);
    }
    this.x = x;
    this.to = to;
    this.hash = java.util.Objects.hash(x, to);
  }

  public Node x() { return x; }

  public Type to() { return to; }

  @Override
  public boolean equals(Object other) {
    if (this == other) return true;
    return other instanceof Convert o && hash == o.hash && x.equals(o.x) && to == o.to;
  }

  @Override
  public int hashCode() { return hash; }

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
