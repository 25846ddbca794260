package io.looplift.apps;

/**
 * A vector kernel in a class of its own, as linear-algebra libraries keep theirs: {@code y += a * x} over part
 * of two arrays. Its static initializer reads a system property, so a loop that inlines {@link #axpy} is
 * offloaded only once Java has initialized this class.
 */
public final class Blas {
  /** Below this length a caller may prefer its own loop (read, as libraries do, from a system property). */
  public static final int SHORT = Integer.getInteger("blas.short", 16);

  private Blas() {}

  /** {@code y[yFirst + i] += a * x[xFirst + i]} for {@code i} from {@code start} to {@code limit}. */
  public static void axpy(double[] y, int yFirst, double a, double[] x, int xFirst, int start, int limit) {
    for (int i = start; i < limit; i++) y[yFirst + i] += a * x[xFirst + i];
  }
}
