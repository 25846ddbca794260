package io.looplift.ir;

/** The loop's induction variable: the value of {@code i} in the current iteration. */
public record Index() implements Node {
  public static final Index I = new Index();

  @Override
  public Type type() { return Type.INT; }

  @Override
  public String toString() { return "i"; }

  // Written out: see package-info, "equals and hashCode".
  @Override
  public boolean equals(Object o) { return o instanceof Index; }

  @Override
  public int hashCode() { return 0x1d3; }
}
