package io.looplift.ir;

/**
 * Java's semantics for every IR operator on raw bits (see {@link Const} for the encoding). Used for
 * constant folding and by the reference executor, so the two can never disagree.
 */
public final class Evaluator {
  private Evaluator() {}

  /** Evaluates {@code op x} where x has computational type {@code t}. */
  public static long unary(UnaryOp op, Type t, long x) {
    return switch (op) {
      case NOT -> x == 0 ? 1 : 0;
      case NEG -> switch (t) {
        case INT -> -(int) x;
        case LONG -> -x;
        case FLOAT -> f(-fv(x));
        case DOUBLE -> d(-dv(x));
        default -> throw bad(op, t);
      };
      case ABS -> switch (t) {
        case INT -> Math.abs((int) x);
        case LONG -> Math.abs(x);
        case FLOAT -> f(Math.abs(fv(x)));
        case DOUBLE -> d(Math.abs(dv(x)));
        default -> throw bad(op, t);
      };
      case SQRT -> d(Math.sqrt(dv(x)));
    };
  }

  /**
   * Evaluates {@code x op y} where the operands have computational type {@code t} (shift counts are INT).
   *
   * @throws ArithmeticException for integer division or remainder by zero, as Java does
   */
  public static long binary(BinaryOp op, Type t, long x, long y) {
    return switch (t) {
      case BOOLEAN -> switch (op) {
        case AND -> x & y;
        case OR -> x | y;
        case XOR -> x ^ y;
        default -> throw bad(op, t);
      };
      case INT -> intOp(op, (int) x, (int) y);
      case LONG -> longOp(op, x, y);
      case FLOAT -> floatOp(op, fv(x), fv(y));
      case DOUBLE -> doubleOp(op, dv(x), dv(y));
      default -> throw bad(op, t);
    };
  }

  private static long intOp(BinaryOp op, int x, int y) {
    return switch (op) {
      case ADD -> x + y;
      case SUB -> x - y;
      case MUL -> x * y;
      case DIV -> x / y;
      case REM -> x % y;
      case AND -> x & y;
      case OR -> x | y;
      case XOR -> x ^ y;
      case SHL -> x << y;
      case SHR -> x >> y;
      case USHR -> x >>> y;
      case MIN -> Math.min(x, y);
      case MAX -> Math.max(x, y);
      case CMPL, CMPG -> Integer.compare(x, y);
    };
  }

  private static long longOp(BinaryOp op, long x, long y) {
    return switch (op) {
      case ADD -> x + y;
      case SUB -> x - y;
      case MUL -> x * y;
      case DIV -> x / y;
      case REM -> x % y;
      case AND -> x & y;
      case OR -> x | y;
      case XOR -> x ^ y;
      case SHL -> x << (int) y;
      case SHR -> x >> (int) y;
      case USHR -> x >>> (int) y;
      case MIN -> Math.min(x, y);
      case MAX -> Math.max(x, y);
      case CMPL, CMPG -> Long.compare(x, y);
    };
  }

  private static long floatOp(BinaryOp op, float x, float y) {
    return switch (op) {
      case ADD -> f(x + y);
      case SUB -> f(x - y);
      case MUL -> f(x * y);
      case DIV -> f(x / y);
      case REM -> f(x % y);
      case MIN -> f(Math.min(x, y));
      case MAX -> f(Math.max(x, y));
      case CMPL -> x > y ? 1 : x == y ? 0 : -1;
      case CMPG -> x < y ? -1 : x == y ? 0 : 1;
      default -> throw bad(op, Type.FLOAT);
    };
  }

  private static long doubleOp(BinaryOp op, double x, double y) {
    return switch (op) {
      case ADD -> d(x + y);
      case SUB -> d(x - y);
      case MUL -> d(x * y);
      case DIV -> d(x / y);
      case REM -> d(x % y);
      case MIN -> d(Math.min(x, y));
      case MAX -> d(Math.max(x, y));
      case CMPL -> x > y ? 1 : x == y ? 0 : -1;
      case CMPG -> x < y ? -1 : x == y ? 0 : 1;
      default -> throw bad(op, Type.DOUBLE);
    };
  }

  /** Evaluates a {@link Convert} from computational type {@code from} to {@code to}. */
  public static long convert(Type from, Type to, long x) {
    return switch (from) {
      case INT -> fromLong((int) x, to);
      case LONG -> fromLong(x, to);
      case FLOAT -> fromDouble(fv(x), to, true);
      case DOUBLE -> fromDouble(dv(x), to, false);
      default -> throw new IllegalArgumentException("convert from " + from);
    };
  }

  private static long fromLong(long x, Type to) {
    return switch (to) {
      case BYTE -> (byte) x;
      case SHORT -> (short) x;
      case CHAR -> (char) x;
      case INT -> (int) x;
      case LONG -> x;
      case FLOAT -> f((float) x);
      case DOUBLE -> d((double) x);
      default -> throw new IllegalArgumentException("convert to " + to);
    };
  }

  private static long fromDouble(double x, Type to, boolean fromFloat) {
    return switch (to) {
      case INT -> (int) x;
      case LONG -> (long) x;
      case FLOAT -> f((float) x);
      case DOUBLE -> d(x); // float to double is exact, so going through double loses nothing
      default -> throw new IllegalArgumentException("convert " + (fromFloat ? "float" : "double") + " to " + to);
    };
  }

  /** Reads an array element as the matching JVM load would, widened to raw bits. */
  public static long load(Object array, Type elementType, int index) {
    return switch (elementType) {
      case BOOLEAN -> ((boolean[]) array)[index] ? 1 : 0;
      case BYTE -> ((byte[]) array)[index];
      case CHAR -> ((char[]) array)[index];
      case SHORT -> ((short[]) array)[index];
      case INT -> ((int[]) array)[index];
      case LONG -> ((long[]) array)[index];
      case FLOAT -> f(((float[]) array)[index]);
      case DOUBLE -> d(((double[]) array)[index]);
    };
  }

  /** Stores raw bits into an array element as the matching JVM store would (truncating sub-int types). */
  public static void store(Object array, Type elementType, int index, long bits) {
    switch (elementType) {
      case BOOLEAN -> ((boolean[]) array)[index] = (bits & 1) != 0;
      case BYTE -> ((byte[]) array)[index] = (byte) bits;
      case CHAR -> ((char[]) array)[index] = (char) bits;
      case SHORT -> ((short[]) array)[index] = (short) bits;
      case INT -> ((int[]) array)[index] = (int) bits;
      case LONG -> ((long[]) array)[index] = bits;
      case FLOAT -> ((float[]) array)[index] = fv(bits);
      case DOUBLE -> ((double[]) array)[index] = dv(bits);
    }
  }

  private static float fv(long bits) { return Float.intBitsToFloat((int) bits); }
  private static double dv(long bits) { return Double.longBitsToDouble(bits); }
  private static long f(float v) { return Float.floatToRawIntBits(v); }
  private static long d(double v) { return Double.doubleToRawLongBits(v); }

  private static IllegalArgumentException bad(Object op, Type t) {
    return new IllegalArgumentException(op + " is not defined on " + t);
  }
}
