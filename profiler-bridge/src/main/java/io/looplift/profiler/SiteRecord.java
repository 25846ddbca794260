package io.looplift.profiler;

import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/** The call-site (PC) record of one loop site: what it is and what its runs did. Thread-safe. */
final class SiteRecord {
  final int id;
  /** Replaced once when an accepted site is discarded (its class could not be rewritten). */
  volatile SiteInfo info;
  final LongAdder offloaded = new LongAdder();
  final LongAdder fallback = new LongAdder();
  final LongAdder timeNanos = new LongAdder();
  final ExecutorCounts executors = new ExecutorCounts();
  volatile String lastFallback;
  /** The first fault of LoopLift's own at this site (its launch then ran as bytecode); null while none. */
  volatile String internalError;
  /** Left out of the report: the loop was analyzed again and registered anew. */
  volatile boolean superseded;
  /** Where the report reads the site's choice of executor from; null while it has none. */
  volatile Supplier<SelectionInfo> selection;

  SiteRecord(int id, SiteInfo info) {
    this.id = id;
    this.info = info;
  }
}
