package io.looplift.analyzer;

/**
 * Loops that call helpers: static ones of other classes ({@link HelperMath}, {@link HelperTables}), methods
 * on {@code this} that no subclass can replace, and methods of objects that do not change inside the loop
 * (inlined, those under a guard on the object's class); methods of objects that do, or abstract methods,
 * are not.
 */
public class HelperShapes {
  private final double scale;
  private final double[] weights;

  HelperShapes(double scale, double[] weights) {
    this.scale = scale;
    this.weights = weights;
  }

  public static void clampAll(double[] x, double[] out) {
    for (int i = 0; i < x.length; i++) out[i] = HelperMath.clamp(x[i], -0.5, 0.5);
  }

  /** Neighbour differences, 0 past the end: offloaded only where every index is in range. */
  public static void differences(double[] x, double[] out, int shift) {
    for (int i = 0; i < out.length; i++) out[i] = HelperMath.at(x, i + shift) - x[i];
  }

  public static void rowDots(double[][] rows, double[] v, double[] out) {
    for (int i = 0; i < rows.length; i++) out[i] = HelperMath.dot(rows[i], v);
  }

  public static void squares(double[] x, double[] out) {
    for (int i = 0; i < x.length; i++) out[i] = HelperMath.squareOfClamped(x[i]);
  }

  public static void scaledAll(double[] x, double[] out) {
    for (int i = 0; i < x.length; i++) out[i] = HelperMath.scaled(x[i]);
  }

  public static void shiftedAll(double[] x, double[] out) {
    for (int i = 0; i < x.length; i++) out[i] = HelperMath.shifted(x[i]);
  }

  public static void tabled(double[] x, double[] out) {
    for (int i = 0; i < x.length; i++) out[i] = HelperTables.weigh(x[i]);
  }

  public static void weighted(double scale, double[] weights, double[] x, double[] out) {
    new HelperShapes(scale, weights).weighAll(x, out);
  }

  void weighAll(double[] x, double[] out) {
    for (int i = 0; i < x.length; i++) out[i] = weigh(x[i], i);
  }

  /** Private, reading fields of {@code this}: inlined. */
  private double weigh(double v, int i) {
    return scale * v * weights[i];
  }

  public static void finalHelper(double scale, double[] x, double[] out) {
    new HelperShapes(scale, null).shiftAll(x, out);
  }

  void shiftAll(double[] x, double[] out) {
    for (int i = 0; i < x.length; i++) out[i] = shift(x[i]);
  }

  /** Final: inlined. */
  final double shift(double v) {
    return v + scale;
  }

  public static void overridable(double scale, double[] x, double[] out) {
    new HelperShapes(scale, null).applyAll(x, out);
  }

  void applyAll(double[] x, double[] out) {
    for (int i = 0; i < x.length; i++) out[i] = apply(x[i]);
  }

  /** Neither private nor final, in a class that is not final: inlined under a guard on the class of this. */
  double apply(double v) {
    return v * scale;
  }

  public static void onAnother(double scale, double[] x, double[] out) {
    new HelperShapes(1, null).otherAll(new HelperShapes(scale, null), x, out);
  }

  void otherAll(HelperShapes other, double[] x, double[] out) {
    for (int i = 0; i < x.length; i++) out[i] = other.shift(x[i]);
  }

  /** A buffer filled to {@link #size()}, a private field, as collections keep theirs. */
  public static class Filled {
    private final int size;

    public Filled(int size) {
      this.size = size;
    }

    public int size() {
      return size;
    }

    /**
     * What javac wrote for an inner class reading an outer class's private field before Java 11 (package-private
     * there; public here, as the tests run the rewritten class in a loader of its own).
     */
    public static int access$000(Filled f) {
      return f.size;
    }
  }

  /** A loop whose limit is a getter of another object, called by Java at every iteration. */
  public static void upToSize(Filled f, double[] x, double[] out) {
    for (int i = 0; i < f.size(); i++) out[i] = x[i] * 3;
  }

  /** A loop whose limit a synthetic-style static accessor of another class reads from a private field. */
  public static void upToAccessor(Filled f, double[] x, double[] out) {
    for (int i = 0; i < Filled.access$000(f); i++) out[i] = x[i] - 1;
  }

  /** A vector whose accessor a loop calls: neither the class nor the methods are final. */
  public static class Vec {
    public final double[] data;

    public Vec(double[] data) {
      this.data = data;
    }

    public double get(int i) {
      return data[i];
    }

    public double twice(double v) {
      return 2 * v;
    }
  }

  /** A subclass that overrides the accessor: a loop inlining {@link Vec#get} must not run it offloaded. */
  public static class NegatedVec extends Vec {
    public NegatedVec(double[] data) {
      super(data);
    }

    @Override
    public double get(int i) {
      return -data[i];
    }
  }

  /** Calls a method on another object, {@code v}, which does not change inside the loop. */
  public static void gather(Vec v, double[] out) {
    for (int i = 0; i < out.length; i++) out[i] = v.get(i) * 3;
  }

  /** Calls a method that reads no field of {@code v}: offloaded, a null {@code v} must still throw. */
  public static void twiceAll(Vec v, double[] x, double[] out) {
    for (int i = 0; i < x.length; i++) out[i] = v.twice(x[i]);
  }

  /**
   * An abstract type whose methods a loop calls: its own {@code half} is inlined under a guard that the
   * object's class does not override it; which {@code third} runs is not known.
   */
  public abstract static class Halver {
    public double half(double v) {
      return v / 2;
    }

    public abstract double third(double v);
  }

  /** A concrete {@link Halver}, inheriting {@code half}. */
  public static class PlainHalver extends Halver {
    @Override
    public double third(double v) {
      return v / 3;
    }
  }

  /** A subclass of a subclass, still inheriting {@code half}. */
  public static final class NamedHalver extends PlainHalver {}

  /** A {@link Halver} whose {@code half} is its own: a loop inlining {@link Halver#half} must not run offloaded. */
  public static final class RoundingHalver extends PlainHalver {
    @Override
    public double half(double v) {
      return Math.floor(v / 2);
    }
  }

  /** A {@link Halver} with a {@code third} of its own, unlike {@link PlainHalver}'s. */
  public static final class CeilingHalver extends Halver {
    @Override
    public double third(double v) {
      return Math.ceil(v / 3);
    }
  }

  /** An interface whose method a loop calls: which class implements it is known only once one has loaded. */
  public interface Scaler {
    double scale(double v);

    default double twice(double v) {
      return 2 * scale(v);
    }
  }

  /**
   * An implementation of {@link Scaler} whose field the loop's class could read itself, but not on an object it
   * knows as a {@code Scaler} ({@code getfield} would not verify): the rewrite reads it through the bridge.
   */
  public static class Tripler implements Scaler {
    double factor = 3;

    @Override
    public double scale(double v) {
      return factor * v;
    }
  }

  /** Another, with a {@code scale} of its own. */
  public static final class Negator implements Scaler {
    @Override
    public double scale(double v) {
      return -v;
    }
  }

  public static void scaled(Scaler s, double[] x, double[] out) {
    for (int i = 0; i < x.length; i++) out[i] = s.scale(x[i]) + 1;
  }

  public static void doubled(Scaler s, double[] x, double[] out) {
    for (int i = 0; i < x.length; i++) out[i] = s.twice(x[i]);
  }

  public static void halves(Halver h, double[] x, double[] out) {
    for (int i = 0; i < x.length; i++) out[i] = h.half(x[i]);
  }

  public static void thirds(Halver h, double[] x, double[] out) {
    for (int i = 0; i < x.length; i++) out[i] = h.third(x[i]);
  }

  /** Calls a method of an object of the Scala runtime's packages, which is never inlined. */
  public static void scaledByCell(scala.looplifttest.Cell c, double[] x, double[] out) {
    for (int i = 0; i < x.length; i++) out[i] = c.times(x[i]);
  }

  /** Calls a method on a different object in every iteration. */
  public static void firsts(Vec[] vecs, double[] out) {
    for (int i = 0; i < vecs.length; i++) out[i] = vecs[i].get(0);
  }

  /** The lengths of rows of objects (Smile's {@code MathEx.c(String[]...)}): its analysis once failed the class's. */
  public static void rowLengths(String[][] rows, int[] out) {
    for (int i = 0; i < rows.length; i++) out[i] = rows[i].length;
  }

  /** A vector whose array is private to it, with a private scale: read before the loop through the bridge. */
  public static final class SealedVec {
    private final double[] data;
    private final double scale;

    public SealedVec(double[] data, double scale) {
      this.data = data;
      this.scale = scale;
    }

    public double get(int i) {
      return data[i] * scale;
    }
  }

  public static void gatherSealed(SealedVec v, double[] out) {
    for (int i = 0; i < out.length; i++) out[i] = v.get(i) + 1;
  }
}
