package io.looplift.apps;

/**
 * Loops LoopLift recognizes but, with its default options, never offloads, run very often: a running
 * smoothing over 8-wide blocks ({@code smooth}: the outer loop carries the accumulators from block to block,
 * the inner loop is far shorter than {@code min.length}) and a short map called once per row of a matrix
 * ({@code scale}); and a floating-point sum ({@code total}), which no executor could split without
 * reassociating it. It runs rounds for at least {@code args[0]} milliseconds (default 3,000: long enough for the
 * agent to put those loops back as they were), each from the same inputs, then prints exact digests; how
 * many rounds ran changes nothing printed.
 */
public final class ShortRows {
  static void smooth(float[] acc, float[] x) {
    int w = acc.length;
    for (int i = 0; i + w <= x.length; i += w) {
      for (int j = 0; j < w; j++) acc[j] = acc[j] * 0.5f + x[i + j];
    }
  }

  static void scale(float[] row, float k) {
    for (int j = 0; j < row.length; j++) row[j] = row[j] * k + 1.0f;
  }

  /** A floating-point sum, kept in Java's order: nothing in it can run in parallel. */
  static double total(float[] a) {
    double s = 0;
    for (int i = 0; i < a.length; i++) s += a[i];
    return s;
  }

  public static void main(String[] args) {
    long millis = args.length > 0 ? Long.parseLong(args[0]) : 3_000;
    float[] x = new float[1 << 16];
    for (int i = 0; i < x.length; i++) x[i] = (i * 7919 % 1000) / 1000f;
    float[] acc = new float[8];
    float[][] rows = new float[4096][16];
    double sum = 0;
    System.out.println("start");
    long end = System.nanoTime() + millis * 1_000_000;
    for (int round = 0; round < 5 || System.nanoTime() < end; round++) {
      java.util.Arrays.fill(acc, 0f);
      smooth(acc, x);
      for (int r = 0; r < rows.length; r++) {
        for (int c = 0; c < rows[r].length; c++) rows[r][c] = x[r * 16 + c];
      }
      for (float[] row : rows) scale(row, 0.75f);
      sum = total(x);
    }
    System.out.println("smooth " + Digest.of(acc) + " total " + Double.doubleToRawLongBits(sum));
    float[] flat = new float[rows.length * 16];
    for (int r = 0; r < rows.length; r++) System.arraycopy(rows[r], 0, flat, r * 16, 16);
    System.out.println("scale " + Digest.of(flat));
  }
}
