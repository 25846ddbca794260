package io.looplift.ir;

/**
 * Writes {@code value} to {@code arrays[array][index]} in every iteration where {@code predicate} holds
 * ({@link Const#TRUE} for unconditional stores). Sub-int element types truncate as the JVM's stores do.
 */
public record Store(int array, Type elementType, Node index, Node value, Node predicate) {
  public Store {
    if (index.type() != Type.INT || value.type() != elementType.stackType() || predicate.type() != Type.BOOLEAN) {
      throw new IllegalArgumentException("store of " + value.type() + " into " + elementType + "[]");
    }
  }
}
