package io.looplift.analyzer;

/** Loop nests as javac compiles them, the shapes real numeric Java is made of; each returns a checksum. */
public class NestShapes {
  static double sum(double[] a) {
    double s = 0;
    for (double d : a) s += d;
    return s;
  }

  static double sum(float[] a) {
    double s = 0;
    for (float f : a) s += f;
    return s;
  }

  static double sum(double[][] m) {
    double s = 0;
    for (double[] r : m) s += sum(r);
    return s;
  }

  public static double matmul(double[] a, double[] b, double[] c, int n) {
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        double s = 0;
        for (int k = 0; k < n; k++) s += a[i * n + k] * b[k * n + j];
        c[i * n + j] = s;
      }
    }
    return sum(c);
  }

  /** The i-k-j form over rows: a loop-invariant row of b inside the k loop, the row of c of each i. */
  public static double matmulRows(double[][] a, double[][] b, double[][] c) {
    for (int i = 0; i < a.length; i++) {
      double[] ci = c[i];
      for (int k = 0; k < b.length; k++) {
        double aik = a[i][k];
        double[] bk = b[k];
        for (int j = 0; j < ci.length; j++) ci[j] += aik * bk[j];
      }
    }
    return sum(c);
  }

  /** Row sums added from the end, the inner test reading its variable before moving it (k-- > 0). */
  public static double rowSumsDown(double[] m, double[] out, int n) {
    for (int i = 0; i < out.length; i++) {
      double s = 0;
      int k = n;
      while (k-- > 0) s += m[i * n + k];
      out[i] = s;
    }
    return out[0];
  }

  /** The same with a limit known only at run time, which the moved test could take out of the int range. */
  public static double rowSumsDownTo(double[] m, double[] out, int n, int last) {
    for (int i = 0; i < out.length; i++) {
      double s = 0;
      int k = n;
      while (k-- > last) s += m[i * n + k];
      out[i] = s;
    }
    return out[0];
  }

  public static double conv(float[] x, float[] w, float[] y) {
    for (int i = 0; i < x.length - w.length; i++) {
      float s = 0f;
      for (int t = 0; t < w.length; t++) s += w[t] * x[i + t];
      y[i] = s;
    }
    double s = 0;
    for (float v : y) s += v;
    return s;
  }

  public static double nbody(float[] px, float[] py, float[] ax, float[] ay) {
    for (int i = 0; i < px.length; i++) {
      float fx = 0f, fy = 0f;
      for (int j = 0; j < px.length; j++) {
        float dx = px[j] - px[i], dy = py[j] - py[i];
        float d2 = dx * dx + dy * dy + 1e-3f;
        float inv = 1f / (d2 * (float) Math.sqrt(d2));
        fx += dx * inv;
        fy += dy * inv;
      }
      ax[i] = fx;
      ay[i] = fy;
    }
    double s = 0;
    for (int i = 0; i < ax.length; i++) s += ax[i] * 3 + ay[i];
    return s;
  }

  public static double jacobi(float[] in, float[] out, int w, int h) {
    for (int y = 1; y < h - 1; y++) {
      for (int x = 1; x < w - 1; x++) {
        out[y * w + x] = 0.25f * (in[y * w + x - 1] + in[y * w + x + 1] + in[(y - 1) * w + x] + in[(y + 1) * w + x]);
      }
    }
    double s = 0;
    for (float v : out) s += v;
    return s;
  }

  static double rowDot(double[] r, double[] v) {
    double s = 0;
    for (int j = 0; j < r.length; j++) s += r[j] * v[j];
    return s;
  }

  /** A helper with a loop, called on each row: inlined into the nest. */
  public static double rowdots(double[][] rows, double[] v, double[] out) {
    for (int i = 0; i < rows.length; i++) out[i] = rowDot(rows[i], v);
    return sum(out);
  }

  static void axpy(double alpha, double[] x, double[] y) {
    for (int k = 0; k < x.length; k++) y[k] += alpha * x[k];
  }

  /** A helper with a loop that writes the row it is given. */
  public static double axpyRows(double alpha, double[] x, double[][] rows) {
    for (int r = 0; r < rows.length; r++) axpy(alpha * r, x, rows[r]);
    return sum(rows);
  }

  /** A triangular inner loop: the lower triangle's row sums. */
  public static double lowerRowSums(double[] a, double[] out, int n) {
    for (int i = 0; i < n; i++) {
      double s = 0;
      for (int j = 0; j <= i; j++) s += a[i * n + j];
      out[i] = s;
    }
    return sum(out);
  }

  /** A row reduction, then a row map that uses its result, on the rows of a matrix it writes. */
  public static double normalizeRows(double[][] m) {
    for (int i = 0; i < m.length; i++) {
      double s = 1e-9;
      for (int j = 0; j < m[i].length; j++) s += Math.abs(m[i][j]);
      for (int j = 0; j < m[i].length; j++) m[i][j] = m[i][j] / s;
    }
    return sum(m);
  }

  /** Parallel over j only: the outer loop runs in order inside each column. */
  public static double columnSums(double[] m, double[] colsum, int rows, int cols) {
    for (int i = 0; i < rows; i++) {
      for (int j = 0; j < cols; j++) colsum[j] += m[i * cols + j];
    }
    return sum(colsum);
  }

  /** Two stores per iteration at different elements of one array. */
  public static double interleave(double[] re, double[] im, double[] out) {
    for (int i = 0; i < re.length; i++) {
      out[2 * i] = re[i];
      out[2 * i + 1] = im[i];
    }
    return sum(out);
  }

  /** A stride known only at run time. */
  public static double strided(double[] a, double[] out, int off, int stride, int n) {
    for (int i = 0; i < n; i++) out[off + i * stride] = a[i] * 2;
    return sum(out);
  }

  /** Rows of an image through a running pixel index, set at each row's start. */
  public static double scaleRows(float[] img, float[] out, int w, int h) {
    for (int y = 0; y < h; y++) {
      int p = y * w;
      for (int x = 0; x < w; x++) {
        out[p] = img[p] * 2 + 1;
        p++;
      }
    }
    return sum(out);
  }

  /** A transpose through a running index that moves a whole row in every inner iteration. */
  public static double transpose(double[] a, double[] t, int rows, int cols) {
    for (int i = 0; i < rows; i++) {
      int q = i;
      for (int j = 0; j < cols; j++) {
        t[q] = a[i * cols + j];
        q += rows;
      }
    }
    return sum(t);
  }

  /** A running index read after its inner loop, which moves it by the row's width. */
  public static double rowEnds(double[] a, double[] out, int[] ends, int w) {
    for (int y = 0; y < ends.length; y++) {
      int p = y * w;
      for (int x = 0; x < w; x++) out[p++] = a[y * w + x] * 3;
      ends[y] = p;
    }
    return sum(out) + ends[ends.length - 1];
  }

  /** A second index that moves by a stride known only at run time in every iteration. */
  public static double packStrided(double[] a, double[] out, int off, int stride) {
    int j = off;
    for (int i = 0; i < a.length; i++) {
      out[j] = a[i] * 2;
      j += stride;
    }
    return sum(out);
  }

  /** A second index that moves by two in every iteration, in two steps. */
  public static double unpackPairs(double[] src, double[] re, double[] im) {
    int k = 0;
    for (int i = 0; i < re.length; i++) {
      re[i] = src[k++];
      im[i] = src[k++];
    }
    return sum(re) + sum(im);
  }

  /** A loop counting down with a second index counting up. */
  public static double reversed(double[] a, double[] out) {
    int j = 0;
    for (int i = a.length - 1; i >= 0; i--) out[j++] = a[i];
    return sum(out);
  }

  /** Colt's loop: the exit test moves the counter first ({@code --k >= 0}). */
  public static double countDown(double[] a, double[] out) {
    for (int k = a.length; --k >= 0; ) out[k] = a[k] * 2;
    return sum(out);
  }

  /** Colt's assign: a count-down loop with a source index and a strided destination index. */
  public static double coltAssign(double[] elems, int index, int stride, double[] values) {
    int i = 0;
    for (int k = values.length; --k >= 0; ) {
      elems[index] = values[i++];
      index += stride;
    }
    return sum(elems);
  }

  /** Colt's 2-D fill: both loops count down in their tests, both element indices step back by strides. */
  public static double coltFill(double[] elems, int rows, int cols, int rowStride, int colStride, double value) {
    int index = (rows - 1) * rowStride + (cols - 1) * colStride;
    for (int row = rows; --row >= 0; ) {
      for (int i = index, column = cols; --column >= 0; ) {
        elems[i] = value + row * 0.5 + column;
        i -= colStride;
      }
      index -= rowStride;
    }
    return sum(elems);
  }

  /** A counter moved by the test and read after the loop: its final value, -1 (or one below its start). */
  public static double countDownLeft(double[] a) {
    int k = a.length;
    while (--k >= 0) a[k] += 1;
    return k * 1000 + sum(a);
  }

  /** The counter moved up by the test ({@code ++i < n}), from -1. */
  public static double preIncrement(double[] a, double[] out) {
    int i = -1;
    while (++i < a.length) out[i] = a[i] - 1;
    return i + sum(out);
  }

  /** A second index beside a count read after the loop: the count stays a reduction. */
  public static double packAndCount(double[] a, double[] out) {
    int j = 0;
    int count = 0;
    for (int i = 0; i < a.length; i++) {
      out[j] = a[i] * 2;
      j += 1;
      count++;
    }
    return count + sum(out);
  }

  /** A second index used after the loop: the launch leaves its final value, as a count's. */
  public static double packedCount(double[] a, double[] out) {
    int j = 0;
    for (int i = 0; i < a.length; i++) out[j++] = a[i] + 1;
    return j + sum(out);
  }

  /** A second index that moves only in some iterations: a compaction, not an induction. */
  public static double positives(double[] a, double[] out) {
    int j = 0;
    for (int i = 0; i < a.length; i++) {
      if (a[i] > 0) out[j++] = a[i];
    }
    return sum(out);
  }

  /**
   * An autocorrelation: the inner test compares its variable plus the outer one ({@code i + lag < n}), so
   * each row runs a different length.
   */
  public static double autocorrelation(double[] x, double[] out) {
    for (int lag = 0; lag < out.length; lag++) {
      double s = 0;
      for (int i = 0; i + lag < x.length; i++) s += x[i] * x[i + lag];
      out[lag] = s;
    }
    return sum(out);
  }

  /** Rows times a vector, the inner loop unrolled by two ({@code c + 2 <= cols}). */
  public static double unrolledRows(double[] m, double[] x, double[] y, int cols) {
    for (int r = 0; r < y.length; r++) {
      double s = 0;
      for (int c = 0; c + 2 <= cols; c += 2) s += m[r * cols + c] * x[c] + m[r * cols + c + 1] * x[c + 1];
      y[r] = s;
    }
    return sum(y);
  }

  /**
   * An inner test whose sum wraps: {@code j + 2} leaves the int range before {@code j} reaches
   * {@code Integer.MAX_VALUE - 2}, and the original loop goes on past the end of {@code a}, and throws.
   */
  public static double offsetWraps(double[] a, double[] out, int from) {
    for (int i = 0; i < out.length; i++) {
      double s = 0;
      for (int j = from; j + 2 <= Integer.MAX_VALUE; j++) s += a[j - from];
      out[i] = s;
    }
    return sum(out);
  }

  /** A moving sum over a window clamped at both ends ({@code Math.max(0, i - r)}, {@code Math.min(n, i + r + 1)}). */
  public static double clampedWindow(double[] a, double[] out, int r) {
    int n = a.length;
    for (int i = 0; i < n; i++) {
      double s = 0;
      for (int j = Math.max(0, i - r); j < Math.min(n, i + r + 1); j++) s += a[j];
      out[i] = s;
    }
    return sum(out);
  }

  /** The least of two ints as a library writes it (FastMath.min): a conditional, once inlined. */
  private static int least(int a, int b) {
    return a <= b ? a : b;
  }

  private static int greatest(int a, int b) {
    return a >= b ? a : b;
  }

  /** A banded matrix times a vector, its band clamped by helpers rather than by Math. */
  public static double bandTimes(double[] m, double[] x, double[] y, int band) {
    int n = x.length;
    for (int i = 0; i < n; i++) {
      double s = 0;
      for (int j = greatest(0, i - band); j <= least(n - 1, i + band); j++) s += m[i * n + j] * x[j];
      y[i] = s;
    }
    return sum(y);
  }

  /** Sums of blocks of four, the last one narrower: its width is chosen by a test of the block's number. */
  public static double blockSums(double[] a, double[] sums) {
    int last = sums.length - 1;
    for (int b = 0; b < sums.length; b++) {
      int width = b == last ? a.length - 4 * b : 4;
      double s = 0;
      for (int k = 0; k < width; k++) s += a[4 * b + k];
      sums[b] = s;
    }
    return sum(sums);
  }

  /** A window clamped one element too far ({@code n + 1}): the last rows read past the end and throw. */
  public static double clampedTooFar(double[] a, double[] out, int r) {
    int n = a.length;
    for (int i = 0; i < n; i++) {
      double s = 0;
      for (int j = Math.max(0, i - r); j < Math.min(n + 1, i + r + 1); j++) s += a[j];
      out[i] = s;
    }
    return sum(out);
  }

  /**
   * A clamp whose sum wraps: {@code i + reach} leaves the int range for every row but the first, and Java's
   * {@code Math.min} then picks the wrapped, negative value: those rows run no iteration.
   */
  public static double clampWraps(double[] a, double[] out, int reach) {
    for (int i = 0; i < out.length; i++) {
      double s = 0;
      for (int j = 0; j < Math.min(a.length, i + reach); j++) s += a[j];
      out[i] = s;
    }
    return sum(out);
  }

  /** Rows times a vector as EJML writes it: one running index into the matrix, moved inside and outside the inner loop. */
  public static double runningRows(double[] m, double[] x, double[] y) {
    int index = 0;
    for (int i = 0; i < y.length; i++) {
      double total = m[index++] * x[0];
      for (int j = 1; j < x.length; j++) total += m[index++] * x[j];
      y[i] = total;
    }
    return sum(y);
  }

  /** An outer product written through one running output index. */
  public static double runningOuter(double[] x, double[] y, double[] a) {
    int index = 0;
    for (int i = 0; i < x.length; i++) {
      double xi = x[i];
      for (int j = 0; j < y.length; j++) a[index++] = xi * y[j];
    }
    return sum(a);
  }

  /**
   * Inner loops whose variables are read after them: where an up-counting one stopped (none of its iterations
   * when {@code upTo} is negative), and a loop counting down by two from {@code i} to {@code low}, inclusive.
   */
  public static double stopsAt(double[] a, double[] out, int cols, int upTo, int low) {
    for (int i = 0; i < out.length; i++) {
      int j = 0;
      double s = 0;
      for (; j < upTo; j++) s += a[i * cols + j];
      int k = i;
      for (; k >= low; k -= 2) s += a[k];
      out[i] = s + j * 1000 + k;
    }
    return sum(out);
  }

  /** Rows times a vector, the inner loop unrolled by four, then its tail going on from where it stopped. */
  public static double unrolledWithTail(double[] m, double[] x, double[] y, int cols) {
    for (int r = 0; r < y.length; r++) {
      double s = 0;
      int c = 0;
      for (; c + 4 <= cols; c += 4) {
        s += m[r * cols + c] * x[c] + m[r * cols + c + 1] * x[c + 1] + m[r * cols + c + 2] * x[c + 2]
            + m[r * cols + c + 3] * x[c + 3];
      }
      for (; c < cols; c++) s += m[r * cols + c] * x[c];
      y[r] = s;
    }
    return sum(y);
  }

  /**
   * An inner loop read after it whose bounds may lie further apart than an int reaches ({@code p} near
   * {@code Integer.MAX_VALUE}, {@code q} near {@code Integer.MIN_VALUE}): it runs no iteration, and its variable
   * stays where it started.
   */
  public static double farApart(double[] a, double[] out, int p, int q) {
    for (int i = 0; i < out.length; i++) {
      double s = 0;
      int j = i + p;
      for (; j < i + q; j++) s += a[j - i - p];
      out[i] = s + j;
    }
    return sum(out);
  }

  /** A dependence carried by the outer loop: never one launch. */
  public static double prefixRows(double[][] a) {
    for (int i = 1; i < a.length; i++) {
      for (int j = 0; j < a[i].length; j++) a[i][j] = a[i - 1][j] + a[i][j];
    }
    return sum(a);
  }

  /** A triangular bound that runs out of the array part-way: the original loop must throw as Java does. */
  public static double triangleOutOfRange(double[] a, double[] out, int n) {
    for (int i = 0; i < n; i++) {
      double s = 0;
      for (int j = 0; j <= 2 * i; j++) s += a[i * n + j];
      out[i] = s;
    }
    return sum(out);
  }

  /** A value read before an inner loop that changes it, used after the loop. */
  public static double staleValue(double[] y, double[] x, double[] z) {
    for (int i = 0; i < y.length; i++) {
      double old = y[i];
      for (int k = 0; k < x.length; k++) y[i] += x[k];
      z[i] = old;
    }
    return sum(z) + sum(y);
  }
}
