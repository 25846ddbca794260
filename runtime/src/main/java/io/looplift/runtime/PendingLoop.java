package io.looplift.runtime;

import io.looplift.executors.Launch;

/**
 * A loop launch that passed its guards and waits in a thread's queue (or a region) to be compiled and run.
 * Its arrays may include {@link TempArray} placeholders; its accumulators hold the initial values and,
 * once {@link #completed()}, the results.
 */
final class PendingLoop {
  final int siteId;
  final SiteTable.Entry entry;
  final Launch launch;
  /** The executor chosen for the loop at its site; null inside a region, whose kernels are chosen for alone. */
  final Selections.Decision decision;
  private volatile boolean completed;

  PendingLoop(int siteId, SiteTable.Entry entry, Launch launch, Selections.Decision decision) {
    this.siteId = siteId;
    this.entry = entry;
    this.launch = launch;
    this.decision = decision;
  }

  /** The bytes of the arrays this loop touches, placeholders included. */
  long bytes() {
    Object[] arrays = launch.arrays();
    long b = 0;
    for (int a = 0; a < arrays.length; a++) {
      b += (long) TempArray.lengthOf(arrays[a]) * launch.template().arrays().get(a).byteSize();
    }
    return b;
  }

  /** True once an executor computed this loop (alone or fused into a kernel). */
  boolean completed() { return completed; }

  void complete() { completed = true; }
}
