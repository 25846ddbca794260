package io.looplift.apps.realcode;

import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.mult.VectorVectorMult_DDRM;

/**
 * A program using EJML 0.46.1 as it is on Maven Central, for {@code RealLibraryTest}: dense matrix
 * arithmetic whose element-wise loops call the accessors of {@code DMatrixD1}, an abstract class
 * ({@code a.times(i, b.get(i))}), so a loop runs offloaded only for matrices whose class does not override
 * them. One such class is here, and must get the original loop's results. Then the products whose loops run
 * an index on through their inner loops ({@code a.get(indexA++)}): a matrix times a vector, an outer product, a
 * product with a transposed matrix. Deterministic: fixed seed, results printed as exact bits.
 */
public final class EjmlMatrices {
  private EjmlMatrices() {}

  /** A hash of the raw bits of every element, in order. */
  private static String digest(double[] a) {
    long h = 17;
    for (double d : a) h = h * 1_000_003L + Double.doubleToRawLongBits(d);
    return Long.toHexString(h);
  }

  /** A matrix whose element reads are clamped to at most 0.5: a subclass that overrides {@code get(int)}. */
  @SuppressWarnings("unchecked") // EJML's create/copy methods are generic in what they return
  static final class Clamped extends DMatrixRMaj {
    private static final long serialVersionUID = 1L;

    Clamped(int rows, int cols) {
      super(rows, cols);
    }

    @Override
    public double get(int index) {
      return Math.min(data[index], 0.5);
    }
  }

  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 400;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 4;
    Random r = new Random(5);
    DMatrixRMaj a = new DMatrixRMaj(n, n);
    DMatrixRMaj b = new DMatrixRMaj(n, n);
    Clamped clamped = new Clamped(n, n);
    for (int i = 0; i < n * n; i++) {
      a.data[i] = r.nextDouble() * 4 - 2;
      b.data[i] = r.nextDouble() + 0.5;
      clamped.data[i] = r.nextDouble();
    }
    DMatrixRMaj sum = new DMatrixRMaj(n, n);
    DMatrixRMaj quotient = new DMatrixRMaj(n, n);
    // A small product: with min.length=0 each of its inner loops is a launch of its own (n * n of them).
    int m = 24;
    DMatrixRMaj left = new DMatrixRMaj(m, m);
    DMatrixRMaj right = new DMatrixRMaj(m, m);
    DMatrixRMaj product = new DMatrixRMaj(m, m);
    DMatrixRMaj transposed = new DMatrixRMaj(m, m);
    DMatrixRMaj vector = new DMatrixRMaj(n, 1);
    for (int i = 0; i < n; i++) vector.data[i] = r.nextDouble() - 0.5;
    DMatrixRMaj image = new DMatrixRMaj(n, 1);
    DMatrixRMaj outer = new DMatrixRMaj(n, n);
    for (int round = 0; round < rounds; round++) {
      CommonOps_DDRM.elementMult(a, b);
      CommonOps_DDRM.add(a, b, sum);
      CommonOps_DDRM.scale(0.5, sum);
      CommonOps_DDRM.elementDiv(sum, b, quotient);
      CommonOps_DDRM.elementMult(clamped, b);
      System.arraycopy(quotient.data, 0, left.data, 0, m * m);
      System.arraycopy(b.data, m * m, right.data, 0, m * m);
      CommonOps_DDRM.mult(left, right, product);
      CommonOps_DDRM.multTransB(left, right, transposed);
      CommonOps_DDRM.mult(a, vector, image);
      VectorVectorMult_DDRM.outerProd(vector, image, outer);
      System.out.println(round + " " + digest(a.data) + " " + digest(quotient.data) + " " + digest(clamped.data)
          + " " + Double.doubleToRawLongBits(CommonOps_DDRM.elementSum(quotient))
          + " " + Double.doubleToRawLongBits(CommonOps_DDRM.elementSum(clamped))
          + " " + digest(product.data) + " " + digest(transposed.data) + " " + digest(image.data)
          + " " + digest(outer.data));
      CommonOps_DDRM.scale(0.25, a);
    }
  }
}
