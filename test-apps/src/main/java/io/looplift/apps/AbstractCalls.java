package io.looplift.apps;

/**
 * A loop that calls an abstract method, as code written against an abstract matrix or signal type does
 * ({@code render}: {@code out[i] = s.sample(i) * gain}): which method runs is known only once a subclass
 * loads, after this class. The program renders a {@link Ramp} for at least {@code args[0]} milliseconds
 * (default 1,500: long enough for the agent to rewrite the loop again once {@code Ramp} has loaded), then a
 * {@link Wave}, whose own {@code sample} the rewritten loop must not replace with {@code Ramp}'s. Prints exact
 * digests; how many rounds ran changes nothing printed.
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

  static void render(Signal s, double gain, double[] out) {
    for (int i = 0; i < out.length; i++) out[i] = s.sample(i) * gain;
  }

  public static void main(String[] args) {
    long millis = args.length > 0 ? Long.parseLong(args[0]) : 1_500;
    int n = 1 << 16;
    double[] levels = new double[n];
    for (int i = 0; i < n; i++) levels[i] = (i * 7919 % 1000) / 8.0;
    double[] out = new double[n];
    System.out.println("start");
    Signal ramp = new Ramp(levels);
    long end = System.nanoTime() + millis * 1_000_000;
    for (int round = 0; round < 20 || System.nanoTime() < end; round++) render(ramp, 0.75, out);
    System.out.println("ramp " + Digest.of(out));
    render(new Wave(levels), 1.25, out);
    System.out.println("wave " + Digest.of(out));
  }
}
