package io.looplift.ir;

/** The loop's induction variable: the value of {@code i} in the current iteration. */
public record Index() implements Node {
  public static final Index I = new Index();

  @Override
  public Type type() { return Type.INT; }

  @Override
  public String toString() { return "i"; }
}
