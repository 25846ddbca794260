package io.looplift.apps;

/**
 * Runs an array loop round after round and says from its own shutdown hook that it is ending, as a
 * service stopped with Ctrl-C would. With the argument {@code forever} it runs until a signal ends it
 * (giving up after two minutes, with exit code 3), pausing a millisecond between rounds as a service waits
 * for its next request (so that its loop takes seconds, not a tenth of one, to do the work after which
 * LoopLift starts looking for OpenCL devices); otherwise it stops after 40 rounds. It is an ordinary
 * program; run it with and without the agent and compare.
 */
public final class UntilInterrupted {
  private static final long GIVE_UP_NANOS = 120_000_000_000L;

  private UntilInterrupted() {}

  static void relax(float[] x, float[] y, float k) {
    for (int i = 0; i < x.length; i++) y[i] = x[i] * k + y[i] * 0.5f;
  }

  private static void pause() {
    try {
      Thread.sleep(1);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  public static void main(String[] args) {
    boolean forever = args.length > 0 && args[0].equals("forever");
    Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("shutdown hook ran")));
    int n = 1 << 17;
    float[] x = new float[n];
    float[] y = new float[n];
    for (int i = 0; i < n; i++) x[i] = (i % 101) * 0.25f;
    long start = System.nanoTime();
    for (int round = 0; forever || round < 40; round++) {
      relax(x, y, 1.0f + round % 3);
      if (round == 2) {
        System.out.println("running, y[" + (n / 3) + "] = " + Float.floatToRawIntBits(y[n / 3]));
        System.out.flush();
      }
      if (System.nanoTime() - start > GIVE_UP_NANOS) {
        System.out.println("never interrupted");
        System.exit(3);
      }
      if (forever) pause();
    }
    System.out.println("done, y[" + (n / 2) + "] = " + Float.floatToRawIntBits(y[n / 2]));
  }
}
