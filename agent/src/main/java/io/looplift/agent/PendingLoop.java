package io.looplift.agent;

import io.looplift.ir.LoopTemplate;

/**
 * A loop launch that passed its guards and waits in a thread's queue (or a region) to be compiled and run:
 * iterations {@code k = 0 .. trips-1} with induction value {@code start + k * step}. {@code arrays} may hold
 * {@link TempArray} placeholders; {@code accs} holds the initial accumulator values and, once
 * {@link #completed()}, the results.
 */
final class PendingLoop {
  final int siteId;
  final Sites.Entry entry;
  final LoopTemplate template;
  final Object[] arrays;
  final long[] params;
  final long[] accs;
  final int start;
  final int step;
  final int trips;
  private volatile boolean completed;

  PendingLoop(int siteId, Sites.Entry entry, LoopTemplate template, Object[] arrays, long[] params, long[] accs,
      int start, int step, int trips) {
    this.siteId = siteId;
    this.entry = entry;
    this.template = template;
    this.arrays = arrays;
    this.params = params;
    this.accs = accs;
    this.start = start;
    this.step = step;
    this.trips = trips;
  }

  /** The bytes of the arrays this loop touches, placeholders included. */
  long bytes() {
    long b = 0;
    for (int a = 0; a < arrays.length; a++) b += (long) TempArray.lengthOf(arrays[a]) * template.arrays().get(a).byteSize();
    return b;
  }

  /** True once an executor computed this loop (alone or fused into a kernel). */
  boolean completed() { return completed; }

  void complete() { completed = true; }
}
