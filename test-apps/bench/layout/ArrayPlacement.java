/**
 * Plain Java, no agent: the ratio benchmark's small-saxpy (y[i] = 0.5f * x[i] + y[i] over 1,000 floats, 20,000
 * times) with a gap of PAD bytes allocated between x and y. Its time depends on where the two arrays land
 * relative to each other (loads of x and stores to y that share address bits below 4 KiB can stall each
 * other), so anything that changes the program's allocations, an agent included, moves it.
 * Run: java test-apps/bench/layout/ArrayPlacement.java [PAD...]   (default: 0 to 16,000 in steps of 1,000)
 */
public class ArrayPlacement {
  static void saxpy(float k, float[] x, float[] y) {
    for (int i = 0; i < x.length; i++) y[i] = k * x[i] + y[i];
  }

  public static void main(String[] args) {
    int[] pads = new int[args.length > 0 ? args.length : 17];
    for (int p = 0; p < pads.length; p++) pads[p] = args.length > 0 ? Integer.parseInt(args[p]) : p * 1000;
    for (int pad : pads) {
      float[] x = new float[1000];
      byte[] gap = new byte[pad];
      float[] y = new float[1000];
      for (int i = 0; i < x.length; i++) {
        x[i] = i * 0.001f;
        y[i] = 1;
      }
      double best = Double.MAX_VALUE;
      for (int r = 0; r < 15; r++) {
        long t = System.nanoTime();
        for (int c = 0; c < 20_000; c++) saxpy(0.5f, x, y);
        best = Math.min(best, (System.nanoTime() - t) / 1e6);
      }
      System.out.printf("gap %6d bytes: best %.3f ms (y[7] %s)%n", gap.length, best, y[7]);
    }
  }
}
