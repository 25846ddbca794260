package io.looplift.ir;

/**
 * Element and value types of the IR. Array elements may be any primitive type; computed values use the
 * JVM's computational types ({@link #INT}, {@link #LONG}, {@link #FLOAT}, {@link #DOUBLE}) plus
 * {@link #BOOLEAN} for conditions.
 */
public enum Type {
  BOOLEAN('Z'), BYTE('B'), CHAR('C'), SHORT('S'), INT('I'), LONG('J'), FLOAT('F'), DOUBLE('D');

  private final char descriptor;

  Type(char descriptor) { this.descriptor = descriptor; }

  /** The JVM descriptor character, e.g. {@code 'D'} for double. */
  public char descriptor() { return descriptor; }

  /** The type a value of this type has on the JVM operand stack (sub-int types widen to INT). */
  public Type stackType() {
    return switch (this) {
      case BOOLEAN, BYTE, CHAR, SHORT, INT -> INT;
      default -> this;
    };
  }

  public boolean isFloating() { return this == FLOAT || this == DOUBLE; }

  public boolean isIntegral() { return this != BOOLEAN && !isFloating(); }

  /** True for LONG and DOUBLE, which take two local-variable slots. */
  public boolean isWide() { return this == LONG || this == DOUBLE; }

  /** The class of a Java array of this type's elements, e.g. {@code double[].class}. */
  public Class<?> arrayClass() {
    return switch (this) {
      case BOOLEAN -> boolean[].class;
      case BYTE -> byte[].class;
      case CHAR -> char[].class;
      case SHORT -> short[].class;
      case INT -> int[].class;
      case LONG -> long[].class;
      case FLOAT -> float[].class;
      case DOUBLE -> double[].class;
    };
  }

  /** Size of one array element in bytes. */
  public int byteSize() {
    return switch (this) {
      case BOOLEAN, BYTE -> 1;
      case CHAR, SHORT -> 2;
      case INT, FLOAT -> 4;
      case LONG, DOUBLE -> 8;
    };
  }

  /** The type for a descriptor character, or throws for non-primitive descriptors. */
  public static Type ofDescriptor(char c) {
    for (Type t : values()) {
      if (t.descriptor == c) return t;
    }
    throw new IllegalArgumentException("not a primitive descriptor: " + c);
  }
}
