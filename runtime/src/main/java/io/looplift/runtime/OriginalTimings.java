package io.looplift.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The original loops one thread is running as measurements of the bytecode candidate
 * ({@link io.looplift.bridge.LoopBridge#TIMED}), innermost last: each ends with
 * {@link io.looplift.bridge.LoopBridge#ran}, which records its time: the clock's, or the thread's processor time
 * when that is shorter. The original loop runs on its thread alone, so time the thread did not run was taken
 * by others: by the JIT, or by another thread's launch of the same kernel on the {@code jvm} executor's pool
 * or a device's process (ojAlgo's matrix product, whose two threads launch a column half each: with the other
 * half on the pool, the original loop measured 74 ms against the 48 it takes beside its like). A loop that threw never reports; its
 * measurement is abandoned when a later report or a new run of the same site finds it still open. Not
 * thread-safe: one per program thread.
 */
final class OriginalTimings {
  /** More open timings than this are abandoned from the outermost: the loops that left them threw. */
  private static final int MAX_OPEN = 16;

  private record Timing(int siteId, Selections.Decision decision, long start, long cpuStart) {}

  private final List<Timing> open = new ArrayList<>();

  /**
   * Starts timing a run of {@code siteId} at {@code now}, the thread's processor time being {@code cpuNow}
   * (negative where unknown).
   */
  void start(int siteId, Selections.Decision decision, long now, long cpuNow) {
    int earlier = find(siteId);
    if (earlier >= 0) abandonFrom(earlier);
    if (open.size() == MAX_OPEN) abandon(open.remove(0));
    open.add(new Timing(siteId, decision, now, cpuNow));
  }

  /**
   * Records the run of {@code siteId} that ended at {@code now}, reading the thread's processor time from
   * {@code cpu}; ignored when none is open.
   */
  void ran(int siteId, long now, LongSupplier cpu) {
    int at = find(siteId);
    if (at < 0) return;
    Timing t = open.remove(at);
    abandonFrom(at);
    long nanos = now - t.start();
    if (t.cpuStart() >= 0) {
      long ranFor = cpu.getAsLong() - t.cpuStart();
      if (ranFor >= 0) nanos = Math.min(nanos, ranFor);
    }
    t.decision().selection().record(t.decision().choice(), nanos, 0);
  }

  private int find(int siteId) {
    for (int k = open.size() - 1; k >= 0; k--) {
      if (open.get(k).siteId() == siteId) return k;
    }
    return -1;
  }

  /** Abandons the timings from index {@code from} on: loops inside the one ending now, which threw. */
  private void abandonFrom(int from) {
    while (open.size() > from) abandon(open.remove(open.size() - 1));
  }

  private static void abandon(Timing t) {
    t.decision().selection().abandon(t.decision().choice());
  }
}
