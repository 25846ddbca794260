package io.looplift.ir;

/**
 * Reads {@code arrays[array][index]}. The value widens as the JVM's array loads do (byte and short
 * sign-extend, char zero-extends, boolean reads 0 or 1). Pure: bounds are guaranteed by run-time guards.
 */
public record Load(int array, Type elementType, Node index) implements Node {
  public Load {
    if (index.type() != Type.INT) throw new IllegalArgumentException("index of type " + index.type());
  }

  @Override
  public Type type() { return elementType.stackType(); }

  @Override
  public String toString() { return "a" + array + "[" + index + "]"; }
}
