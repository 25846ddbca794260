package io.looplift.runtime;

import io.looplift.executors.schedule.Ticket;
import io.looplift.tracecache.KeyAccumulator;
import java.util.ArrayList;
import java.util.List;

/**
 * One program thread's state in the pipeline: its work queue with the trace key of what is queued, the
 * programs it handed to the E-scheduler and has not waited for, the region it is recording and the original
 * loops it is timing. Used by its own thread only.
 */
final class ThreadWork {
  final List<PendingLoop> queue = new ArrayList<>();
  /** The bytes of array data the queued loops touch. */
  long queuedBytes;
  final KeyAccumulator queueKey = new KeyAccumulator();
  final KeyAccumulator scratchKey = new KeyAccumulator();
  final List<Ticket> outstanding = new ArrayList<>();
  final OriginalTimings timings = new OriginalTimings();

  /** The region being recorded, or -1. */
  int regionId = -1;
  /** Set when a loop of the region failed its guards: the region will be declined. */
  boolean regionFailed;
  final List<PendingLoop> region = new ArrayList<>();
  final KeyAccumulator regionKey = new KeyAccumulator();

  void startRegion(int id) {
    regionId = id;
    regionFailed = false;
    region.clear();
    regionKey.reset();
  }

  void endRegion() {
    regionId = -1;
    region.clear();
    regionKey.reset();
  }
}
