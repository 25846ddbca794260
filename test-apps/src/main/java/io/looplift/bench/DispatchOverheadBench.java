package io.looplift.bench;

import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of one call of a small array loop, to be run in a JVM without and with the agent (see
 * {@link OverheadRunner}). Each benchmark calls plain Java loops the agent recognizes, then reads one
 * element of the output, so that any deferred result is made visible on every call.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class DispatchOverheadBench {
  @Param({"16", "1000", "4096", "16384", "65536"})
  int size;

  float[] x;
  float[] y;

  /** Fills the inputs with fixed values in [0, 1). */
  @Setup
  public void setUp() {
    Random rnd = new Random(42);
    x = new float[size];
    y = new float[size];
    for (int i = 0; i < size; i++) {
      x[i] = rnd.nextFloat();
      y[i] = rnd.nextFloat();
    }
  }

  /** One element-wise loop per call. */
  @Benchmark
  public float saxpy() {
    saxpy(1.0001f, x, y);
    return y[size - 1];
  }

  /** Three consecutive element-wise loops over the same arrays per call (candidates for fusion). */
  @Benchmark
  public float chain() {
    chain(1.0001f, x, y);
    return y[size - 1];
  }

  static void saxpy(float k, float[] x, float[] y) {
    for (int i = 0; i < x.length; i++) y[i] = k * x[i] + y[i];
  }

  // y tends to (k - 2) * x over repeated calls, so the values stay bounded.
  static void chain(float k, float[] x, float[] y) {
    for (int i = 0; i < x.length; i++) y[i] = k * x[i] + y[i];
    for (int i = 0; i < x.length; i++) y[i] = y[i] * 0.5f;
    for (int i = 0; i < x.length; i++) y[i] = y[i] - x[i];
  }
}
