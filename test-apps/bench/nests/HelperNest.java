/**
 * The shape of ojAlgo's matrix product (MultiplyNeither.addMxC): a nest over columns whose inner loop is a call
 * of an axpy helper, 700 x 700 doubles, its columns split between two threads as ojAlgo splits them. Plain
 * Java; run it with and without the agent (declined with min.length=1000000000, or with the default options).
 * Prints "helper-nest millis" (best of the runs after warm-up) and a checksum line of result bits. Declined,
 * the nest ran about 1.35x as long as plain Java (see the twenty-third session in the README).
 */
public class HelperNest {
  static void axpy(double[] y, int first, double a, double[] x, int xFirst, int start, int limit) {
    for (int i = start; i < limit; i++) y[first + i] += a * x[xFirst + i];
  }

  static void addMxC(double[] product, int firstColumn, int columnLimit, double[] left, int complexity,
      double[] right) {
    int structure = left.length / complexity;
    for (int j = firstColumn; j < columnLimit; j++) {
      for (int c = 0; c < complexity; c++) {
        axpy(product, j * structure, right[c + j * complexity], left, c * structure, 0, structure);
      }
    }
  }

  public static void main(String[] args) {
    int n = 700;
    double[] left = new double[n * n];
    double[] right = new double[n * n];
    double[] product = new double[n * n];
    for (int i = 0; i < n * n; i++) {
      left[i] = (i % 101) / 10.0;
      right[i] = (i % 53) / 7.0;
    }
    long best = Long.MAX_VALUE;
    long checksum = 0;
    for (int r = 0; r < 20; r++) {
      java.util.Arrays.fill(product, 0);
      long t = System.nanoTime();
      Thread half = new Thread(() -> addMxC(product, n / 2, n, left, n, right));
      half.start();
      addMxC(product, 0, n / 2, left, n, right);
      try {
        half.join();
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
      t = System.nanoTime() - t;
      if (r >= 5) best = Math.min(best, t);
      checksum = checksum * 31 + Double.doubleToRawLongBits(product[r * 997 % (n * n)]);
    }
    System.out.printf("helper-nest %.2f%n", best / 1e6);
    System.out.println("checksum " + Long.toHexString(checksum));
  }
}
