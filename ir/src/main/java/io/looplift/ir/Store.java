package io.looplift.ir;

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
}
