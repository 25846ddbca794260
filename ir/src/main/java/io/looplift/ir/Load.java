package io.looplift.ir;

/**
 * Reads {@code arrays[array][index]}. The value widens as the JVM's array loads do (byte and short
 * sign-extend, char zero-extends, boolean reads 0 or 1). Pure: bounds are guaranteed by run-time guards.
 */
public final class Load implements Node {
  private final int array;
  private final Type elementType;
  private final Node index;
  private final int hash;

  public Load(int array, Type elementType, Node index) {
    if (index.type() != Type.INT) throw new IllegalArgumentException("index of type " + index.type());
    this.array = array;
    this.elementType = elementType;
    this.index = index;
    this.hash = java.util.Objects.hash(array, elementType, index);
  }

  public int array() { return array; }

  public Type elementType() { return elementType; }

  public Node index() { return index; }

  @Override
  public boolean equals(Object other) {
    if (this == other) return true;
    return other instanceof Load o && hash == o.hash && array == o.array && elementType == o.elementType && index.equals(o.index);
  }

  @Override
  public int hashCode() { return hash; }

  @Override
  public Type type() { return elementType.stackType(); }

  @Override
  public String toString() { return "a" + array + "[" + index + "]"; }
}
