package io.looplift.apps;

/**
 * Loops that call an abstract method, as code written against an abstract matrix or signal type does
 * ({@code out[i] = s.sample(i) * gain}): which method runs is known only once a subclass loads, after the
 * loops' classes. {@link Mixer#render}'s loop runs in rounds, each followed by a digest of what it wrote, so
 * that its class, idle between two rounds, can be rewritten again once {@link Ramp} has loaded. The loop of
 * {@code main} cannot be: {@code main} runs throughout, and a method that runs while its class is redefined
 * loses its file and line in stack traces, which this program prints at the end. The program renders a
 * {@link Ramp} for at least {@code args[0]} milliseconds (default 1,500), then a {@link Wave}, whose own
 * {@code sample} the rewritten loop must not replace with {@code Ramp}'s. Prints exact digests; how many
 * rounds ran changes nothing printed.
 */
public final class AbstractCalls {
  /** A sampled signal. */
  abstract static class Signal {
    abstract double sample(int i);
  }

  /** A saw-tooth ramp over a table of levels. */
  static final class Ramp extends Signal {
    private final double[] levels;

    Ramp(double[] levels) {
      this.levels = levels;
    }

    @Override
    double sample(int i) {
      return levels[i] * 0.5 + 1.0;
    }
  }

  /** A signal with a sample of its own. */
  static final class Wave extends Signal {
    private final double[] levels;

    Wave(double[] levels) {
      this.levels = levels;
    }

    @Override
    double sample(int i) {
      return levels[i] * levels[i] - 3.0;
    }
  }

  /** The loop called round after round, in a class of its own. */
  static final class Mixer {
    private Mixer() {}

    static void render(Signal s, double gain, double[] out) {
      for (int i = 0; i < out.length; i++) out[i] = s.sample(i) * gain;
    }
  }

  public static void main(String[] args) {
    long millis = args.length > 0 ? Long.parseLong(args[0]) : 1_500;
    int n = 1 << 16;
    double[] levels = new double[n];
    for (int i = 0; i < n; i++) levels[i] = (i * 7919 % 1000) / 8.0;
    double[] out = new double[n];
    System.out.println("start");
    Signal ramp = new Ramp(levels);
    String digest = "";
    long end = System.nanoTime() + millis * 1_000_000;
    for (int round = 0; round < 20 || System.nanoTime() < end; round++) {
      Mixer.render(ramp, 0.75, out);
      digest = Digest.of(out);
    }
    System.out.println("ramp " + digest);
    double[] rise = new double[n];
    for (int i = 0; i < n; i++) rise[i] = ramp.sample(i) - levels[i];
    System.out.println("rise " + Digest.of(rise));
    Mixer.render(new Wave(levels), 1.25, out);
    System.out.println("wave " + Digest.of(out));
    System.out.println("at " + new Throwable().getStackTrace()[0]);
  }
}
