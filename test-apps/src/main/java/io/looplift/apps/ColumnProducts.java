package io.looplift.apps;

/**
 * A matrix product as ojAlgo writes it ({@code MultiplyNeither.addMxC}): a nest over the product's columns
 * whose inner loop is a call of {@link Blas#axpy}, the columns split between two threads. Column-major
 * {@code n x n} doubles; {@code args[0]} is {@code n} (default 64), {@code args[1]} the rounds (default 12).
 * Prints an exact digest of the product each round.
 */
public final class ColumnProducts {
  private ColumnProducts() {}

  static void addMxC(double[] product, int firstColumn, int columnLimit, double[] left, int complexity,
      double[] right) {
    int structure = left.length / complexity;
    for (int j = firstColumn; j < columnLimit; j++) {
      for (int c = 0; c < complexity; c++) {
        Blas.axpy(product, j * structure, right[c + j * complexity], left, c * structure, 0, structure);
      }
    }
  }

  public static void main(String[] args) throws InterruptedException {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 64;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 12;
    double[] left = new double[n * n];
    double[] right = new double[n * n];
    for (int i = 0; i < n * n; i++) {
      left[i] = (i % 101) / 10.0;
      right[i] = (i % 53) / 7.0;
    }
    for (int r = 0; r < rounds; r++) {
      double[] product = new double[n * n];
      Thread half = new Thread(() -> addMxC(product, n / 2, n, left, n, right));
      half.start();
      addMxC(product, 0, n / 2, left, n, right);
      half.join();
      System.out.println(r + " " + Digest.of(product));
      right[r % right.length] += 1.0;
    }
  }
}
