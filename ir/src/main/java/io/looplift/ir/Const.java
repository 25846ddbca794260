package io.looplift.ir;

/**
 * A constant of a computational type. {@code bits} holds the value as the JVM would store it in a long:
 * ints sign-extended, floats as {@link Float#floatToRawIntBits}, doubles as {@link Double#doubleToRawLongBits},
 * booleans as 0 or 1.
 */
public record Const(Type type, long bits) implements Node {
  public static final Const TRUE = new Const(Type.BOOLEAN, 1);
  public static final Const FALSE = new Const(Type.BOOLEAN, 0);

  public Const {
    if (type != type.stackType() && type != Type.BOOLEAN) throw new IllegalArgumentException("constant of " + type);
  }

  public static Const ofInt(int v) { return new Const(Type.INT, v); }
  public static Const ofLong(long v) { return new Const(Type.LONG, v); }
  public static Const ofFloat(float v) { return new Const(Type.FLOAT, Float.floatToRawIntBits(v)); }
  public static Const ofDouble(double v) { return new Const(Type.DOUBLE, Double.doubleToRawLongBits(v)); }
  public static Const ofBoolean(boolean v) { return v ? TRUE : FALSE; }

  /** A constant of {@code type} from raw bits, normalized (ints truncated to 32 bits, sign-extended). */
  public static Const ofBits(Type type, long bits) {
    return switch (type) {
      case INT -> ofInt((int) bits);
      case FLOAT -> new Const(Type.FLOAT, (int) bits);
      case BOOLEAN -> ofBoolean(bits != 0);
      default -> new Const(type, bits);
    };
  }

  public int intValue() { return (int) bits; }
  public long longValue() { return bits; }
  public float floatValue() { return Float.intBitsToFloat((int) bits); }
  public double doubleValue() { return Double.longBitsToDouble(bits); }
  public boolean booleanValue() { return bits != 0; }

  @Override
  public String toString() {
    return switch (type) {
      case INT -> Integer.toString(intValue());
      case LONG -> bits + "L";
      case FLOAT -> floatValue() + "f";
      case DOUBLE -> Double.toString(doubleValue());
      default -> Boolean.toString(booleanValue());
    };
  }

  // Written out: see package-info, "equals and hashCode".
  @Override
  public boolean equals(Object o) { return o instanceof Const c && bits == c.bits && type == c.type; }

  @Override
  public int hashCode() { return 31 * Long.hashCode(bits) + type.ordinal(); }
}
