package io.looplift.apps;

/**
 * A program built on {@link VectorOps}, a utility class with eighteen methods with loops, which the agent
 * rewrites off the thread that loads it and installs by retransformation. It runs the same rounds of
 * operations for at least {@code args[0]} milliseconds (default 1,500: long enough for the rewritten class to
 * be installed while it runs), each round computing the same values from the same inputs, then prints exact
 * digests of the last round: how many rounds ran changes nothing printed.
 */
public final class VectorOpsUser {
  private VectorOpsUser() {}

  public static void main(String[] args) {
    long millis = args.length > 0 ? Long.parseLong(args[0]) : 1_500;
    int n = 1 << 17;
    double[] a = new double[n];
    double[] b = new double[n];
    for (int i = 0; i < n; i++) {
      a[i] = ((i * 7919L) % 2003) / 101.0 - 9.5;
      b[i] = ((i * 104729L) % 997) / 53.0 + 0.25;
    }
    double[] t = new double[n];
    double[] u = new double[n];
    double[] out = new double[n];
    double[] sums = new double[8];
    long above = 0;
    long end = System.nanoTime() + millis * 1_000_000;
    for (int round = 0; round < 10 || System.nanoTime() < end; round++) {
      VectorOps.add(a, b, t);
      VectorOps.sub(t, b, u);
      VectorOps.mul(u, b, t);
      VectorOps.div(t, b, u);
      VectorOps.scale(0.5, u, t);
      VectorOps.abs(t, u);
      VectorOps.sqrt(u, t);
      VectorOps.square(t, u);
      VectorOps.clamp(u, 0.5, 4.0, t);
      VectorOps.lerp(t, b, 0.25, out);
      System.arraycopy(a, 0, u, 0, n);
      VectorOps.axpy(1.5, out, u);
      sums[0] = VectorOps.sum(u);
      sums[1] = VectorOps.dot(u, b);
      sums[2] = VectorOps.normSq(out);
      sums[3] = VectorOps.min(u);
      sums[4] = VectorOps.max(u);
      sums[5] = VectorOps.distanceSq(u, out);
      above = VectorOps.countAbove(u, 1.0);
    }
    System.out.println("out " + Digest.of(out));
    System.out.println("u " + Digest.of(u));
    System.out.println("sums " + Digest.of(sums) + " above " + above);
  }
}
