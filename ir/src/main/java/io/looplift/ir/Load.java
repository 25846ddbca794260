package io.looplift.ir;

import java.util.Objects;

/**
 * Reads element {@code index} of argument {@code array}, or, when {@code row} is not null, of row
 * {@code row} of that argument (an array of arrays). The value widens as the JVM's array loads do (byte
 * and short sign-extend, char zero-extends, boolean reads 0 or 1). Pure: bounds are guaranteed by run-time
 * guards.
 *
 * <p>{@code epoch} numbers the body segment (see {@link Stmt}) in which a loop nest's analysis read the
 * element, so that reads of one element before and after an inner loop are different values; it is 0 in
 * loops without inner loops, and code generators otherwise ignore it.
 */
public final class Load implements Node {
  private final int array;
  private final Type elementType;
  private final Node index;
  private final Node row;
  private final int epoch;
  private final int hash;

  public Load(int array, Type elementType, Node index, Node row, int epoch) {
    if (index.type() != Type.INT) throw new IllegalArgumentException("index of type " + index.type());
    if (row != null && row.type() != Type.INT) throw new IllegalArgumentException("row of type " + row.type());
    this.array = array;
    this.elementType = elementType;
    this.index = index;
    this.row = row;
    this.epoch = epoch;
    this.hash = Objects.hash(array, elementType, index, row, epoch);
  }

  /** A read of a one-dimensional array argument. */
  public Load(int array, Type elementType, Node index) {
    this(array, elementType, index, null, 0);
  }

  public int array() { return array; }

  public Type elementType() { return elementType; }

  public Node index() { return index; }

  /** The row of an array of arrays, or null for a one-dimensional array argument. */
  public Node row() { return row; }

  public int epoch() { return epoch; }

  @Override
  public boolean equals(Object other) {
    if (this == other) return true;
    return other instanceof Load o && hash == o.hash && array == o.array && elementType == o.elementType
        && epoch == o.epoch && index.equals(o.index) && Objects.equals(row, o.row);
  }

  @Override
  public int hashCode() { return hash; }

  @Override
  public Type type() { return elementType.stackType(); }

  @Override
  public String toString() {
    return "a" + array + (row == null ? "" : "[" + row + "]") + "[" + index + "]" + (epoch == 0 ? "" : "@" + epoch);
  }
}
