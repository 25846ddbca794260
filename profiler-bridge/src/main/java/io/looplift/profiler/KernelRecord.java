package io.looplift.profiler;

import java.util.Arrays;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/** The kernel (CK) record of one generated kernel: its launches, time and the loop sites it served. */
final class KernelRecord {
  final String id;
  /** Order of first launch, so the report lists kernels the way they appeared. */
  final long order;
  final LongAdder launches = new LongAdder();
  final LongAdder timeNanos = new LongAdder();
  final ExecutorCounts executors = new ExecutorCounts();
  /** Time and bytes spent moving arrays to and from a device, and the device's time running it, over all launches. */
  final LongAdder transferNanos = new LongAdder();
  final LongAdder transferBytes = new LongAdder();
  final LongAdder deviceNanos = new LongAdder();
  /** Where the report reads the kernel's choice of executor from; null while it has none. */
  volatile Supplier<SelectionInfo> selection;
  /**
   * Site ids served, in order of first launch. Copy-on-write: a kernel serves a handful of sites and
   * almost every launch finds its site already there, so the hot path is a scan with no lock.
   */
  private volatile int[] sites = new int[0];

  KernelRecord(String id, long order) {
    this.id = id;
    this.order = order;
  }

  void served(int siteId) {
    if (contains(sites, siteId)) return;
    synchronized (this) {
      int[] s = sites;
      if (contains(s, siteId)) return;
      int[] grown = Arrays.copyOf(s, s.length + 1);
      grown[s.length] = siteId;
      sites = grown;
    }
  }

  int[] sites() {
    return sites.clone();
  }

  private static boolean contains(int[] s, int siteId) {
    for (int x : s) {
      if (x == siteId) return true;
    }
    return false;
  }
}
