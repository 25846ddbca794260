package io.looplift.ir;

/** The length of row {@code row} of argument {@code array}, an array of arrays: {@code m[row].length}. */
public record Length(int array, Node row) implements Node {
  public Length {
    if (row.type() != Type.INT) throw new IllegalArgumentException("row index of type " + row.type());
  }

  @Override
  public Type type() { return Type.INT; }

  @Override
  public String toString() { return "a" + array + "[" + row + "].length"; }
}
