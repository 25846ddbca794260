package io.looplift.executors;

import io.looplift.ir.LoopTemplate;

/**
 * One run of a {@link LoopTemplate} over concrete arguments: iterations {@code k = 0 .. trips-1} with
 * induction value {@code i = start + k * step}. The caller has already checked every guard: arrays are
 * non-null and of the template's element types, every access is in bounds for the whole range, and a
 * written array is the same object as another array argument only when every access to either is at the
 * same element in each iteration and every load of an iteration precedes its stores in the source loop, so
 * that computing an iteration's values before its stores (as every executor does) gives Java's result.
 *
 * <p>{@code accumulators} holds the initial values (raw bits, see {@link io.looplift.ir.Const}) on entry and
 * the results once the launch completes. Not thread-safe: one executor owns a launch while it runs.
 */
public final class Launch {
  private final LoopTemplate template;
  private final Object[] arrays;
  private final long[] params;
  private final long[] accumulators;
  private final int start;
  private final int step;
  private final int trips;
  private long setupNanos;
  private long transferNanos;
  private long transferBytes;
  private long deviceNanos;

  public Launch(LoopTemplate template, Object[] arrays, long[] params, long[] accumulators, int start, int step, int trips) {
    if (trips < 0 || step == 0) throw new IllegalArgumentException("trips " + trips + ", step " + step);
    this.template = template;
    this.arrays = arrays;
    this.params = params;
    this.accumulators = accumulators;
    this.start = start;
    this.step = step;
    this.trips = trips;
  }

  public LoopTemplate template() { return template; }
  public Object[] arrays() { return arrays; }
  public long[] params() { return params; }
  public long[] accumulators() { return accumulators; }
  public int start() { return start; }
  public int step() { return step; }
  public int trips() { return trips; }

  /**
   * Records what the executor spent on this launch besides computing it: {@code setupNanos} making the kernel
   * ready (building an OpenCL program, which later launches do not pay), {@code transferNanos} and
   * {@code transferBytes} moving arrays to a device and results back, {@code deviceNanos} running the kernel
   * there. Executors that compute in this JVM record nothing.
   */
  public void spent(long setupNanos, long transferNanos, long transferBytes, long deviceNanos) {
    this.setupNanos = setupNanos;
    this.transferNanos = transferNanos;
    this.transferBytes = transferBytes;
    this.deviceNanos = deviceNanos;
  }

  /** The set-up time the executor recorded with {@link #spent}; 0 when it recorded none. */
  public long setupNanos() { return setupNanos; }

  /** The transfer time the executor recorded with {@link #spent}; 0 when it recorded none. */
  public long transferNanos() { return transferNanos; }

  /** The bytes the executor recorded moving with {@link #spent}; 0 when it recorded none. */
  public long transferBytes() { return transferBytes; }

  /** The device's time running the kernel, recorded with {@link #spent}; 0 when it recorded none. */
  public long deviceNanos() { return deviceNanos; }
}
