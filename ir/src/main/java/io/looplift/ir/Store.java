package io.looplift.ir;

import java.util.Objects;

/**
 * Writes {@code value} to element {@code index} of an array wherever {@code predicate} holds
 * ({@link Const#TRUE} for unconditional stores). The array is argument {@code array} of the launch, or,
 * when {@code row} is not null, row {@code row} of that argument, an array of arrays. Sub-int element types
 * truncate as the JVM's stores do.
 */
public record Store(int array, Type elementType, Node index, Node value, Node predicate, Node row) implements Stmt {
  public Store {
    if (index.type() != Type.INT || value.type() != elementType.stackType() || predicate.type() != Type.BOOLEAN
        || (row != null && row.type() != Type.INT)) {
      throw new IllegalArgumentException("store of " + value.type() + " into " + elementType + "[]");
    }
  }

  /** A store into a one-dimensional array argument. */
  public Store(int array, Type elementType, Node index, Node value, Node predicate) {
    this(array, elementType, index, value, predicate, null);
  }

  // Written out: see package-info, "equals and hashCode".
  @Override
  public boolean equals(Object o) {
    return o instanceof Store s && array == s.array && elementType == s.elementType && index.equals(s.index)
        && value.equals(s.value) && predicate.equals(s.predicate) && Objects.equals(row, s.row);
  }

  @Override
  public int hashCode() { return Objects.hash(array, elementType, index, value, predicate, row); }
}
