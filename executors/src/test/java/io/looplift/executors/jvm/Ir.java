package io.looplift.executors.jvm;

import io.looplift.ir.Acc;
import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Compare;
import io.looplift.ir.Cond;
import io.looplift.ir.Const;
import io.looplift.ir.Index;
import io.looplift.ir.Load;
import io.looplift.ir.Node;
import io.looplift.ir.ReduceOp;
import io.looplift.ir.Reduction;
import io.looplift.ir.Select;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import java.util.Random;

/** Small builders for hand-written templates and random test data with the awkward values mixed in. */
final class Ir {
  private Ir() {}

  static final Node I = Index.I;

  static Node load(int array, Type type) { return new Load(array, type, I); }

  static Node load(int array, Type type, Node index) { return new Load(array, type, index); }

  static Store store(int array, Type type, Node value) { return new Store(array, type, I, value, Const.TRUE); }

  static Node bin(BinaryOp op, Node x, Node y) { return Binary.of(op, x, y); }

  static Node zero(Type t) { return Const.ofBits(t, 0); }

  /** {@code e REL acc} as javac compiles it: fcmpg for < and <=, fcmpl for > and >=. */
  static Node rel(Cond cond, Node x, Node y) {
    Type t = x.type();
    if (t == Type.INT || t == Type.LONG) return Compare.of(cond, x, y);
    BinaryOp cmp = cond == Cond.LT || cond == Cond.LE ? BinaryOp.CMPG : BinaryOp.CMPL;
    return Compare.of(cond, Binary.of(cmp, x, y), Const.ofInt(0));
  }

  /** The reduction {@code acc = acc op e} (for SELECT_*: {@code if (e REL acc) acc = e}), in Java's form. */
  static Reduction reduction(int acc, Type t, ReduceOp op, Node e) {
    Node a = new Acc(acc, t);
    Node update = switch (op) {
      case ADD -> bin(BinaryOp.ADD, a, e);
      case MUL -> bin(BinaryOp.MUL, a, e);
      case AND -> bin(BinaryOp.AND, a, e);
      case OR -> bin(BinaryOp.OR, a, e);
      case XOR -> bin(BinaryOp.XOR, a, e);
      case MIN -> bin(BinaryOp.MIN, a, e);
      case MAX -> bin(BinaryOp.MAX, a, e);
      default -> Select.of(rel(op.selectCond(), e, a), e, a);
    };
    return new Reduction(acc, t, update, op, e);
  }

  /** Random values of computational or element type {@code t} as raw bits, one in four a special value. */
  static long randomBits(Random rnd, Type t) {
    boolean special = rnd.nextInt(4) == 0;
    return switch (t) {
      case BOOLEAN -> rnd.nextInt(2);
      case BYTE -> (byte) rnd.nextInt();
      case CHAR -> (char) rnd.nextInt();
      case SHORT -> (short) rnd.nextInt();
      case INT -> special ? pick(rnd, Integer.MIN_VALUE, Integer.MAX_VALUE, 0, -1, 1, 31, 32, 33) : rnd.nextInt(3) == 0 ? rnd.nextInt(200) - 100 : rnd.nextInt();
      case LONG -> special ? pick(rnd, Long.MIN_VALUE, Long.MAX_VALUE, 0, -1, 1, 63, 64, Integer.MIN_VALUE) : rnd.nextInt(3) == 0 ? rnd.nextInt(200) - 100 : rnd.nextLong();
      case FLOAT -> Float.floatToRawIntBits(special
          ? (float) pickD(rnd, Float.NaN, 0.0f, -0.0f, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.MAX_VALUE, Float.MIN_VALUE, 3e9f, -3e9f, 1e19f, 0.5f, -2.5f)
          : (float) (rnd.nextGaussian() * Math.pow(10, rnd.nextInt(8) - 3)));
      case DOUBLE -> Double.doubleToRawLongBits(special
          ? pickD(rnd, Double.NaN, 0.0, -0.0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MAX_VALUE, Double.MIN_VALUE, 3e9, -3e9, 1e19, 0.5, -2.5)
          : rnd.nextGaussian() * Math.pow(10, rnd.nextInt(8) - 3));
    };
  }

  private static long pick(Random rnd, long... v) { return v[rnd.nextInt(v.length)]; }

  private static double pickD(Random rnd, double... v) { return v[rnd.nextInt(v.length)]; }

  /** A new array of element type {@code t} and length {@code n} filled with {@link #randomBits}. */
  static Object randomArray(Random rnd, Type t, int n) {
    Object a = newArray(t, n);
    for (int k = 0; k < n; k++) io.looplift.ir.Evaluator.store(a, t, k, randomBits(rnd, t));
    return a;
  }

  static Object newArray(Type t, int n) {
    return switch (t) {
      case BOOLEAN -> new boolean[n];
      case BYTE -> new byte[n];
      case CHAR -> new char[n];
      case SHORT -> new short[n];
      case INT -> new int[n];
      case LONG -> new long[n];
      case FLOAT -> new float[n];
      case DOUBLE -> new double[n];
    };
  }

  /** A deep copy of launch arrays. */
  static Object[] copy(Object[] arrays) {
    Object[] c = new Object[arrays.length];
    for (int k = 0; k < arrays.length; k++) {
      Object a = arrays[k];
      int n = java.lang.reflect.Array.getLength(a);
      Object b = java.lang.reflect.Array.newInstance(a.getClass().getComponentType(), n);
      System.arraycopy(a, 0, b, 0, n);
      c[k] = b;
    }
    return c;
  }
}
