package io.looplift.ir;

import java.util.Objects;

/** The length of row {@code row} of argument {@code array}, an array of arrays: {@code m[row].length}. */
public record Length(int array, Node row) implements Node {
  public Length {
    if (row.type() != Type.INT) throw new IllegalArgumentException("row index of type " + row.type());
  }

  @Override
  public Type type() { return Type.INT; }

  @Override
  public String toString() { return "a" + array + "[" + row + "].length"; }

  // Written out: see package-info, "equals and hashCode".
  @Override
  public boolean equals(Object o) { return o instanceof Length l && array == l.array && Objects.equals(row, l.row); }

  @Override
  public int hashCode() { return 53 * array + Objects.hashCode(row); }
}
