package io.looplift.profiler;

import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/** What verify mode found for one kernel on one executor: launches checked, mismatches, the worst difference. */
final class VerifyRecord {
  final String kernelId;
  final String executor;
  /** Order of the first check, so the report lists kernels the way they were checked. */
  final long order;
  final LongAdder checked = new LongAdder();
  final LongAdder mismatches = new LongAdder();
  final LongAccumulator worst = new LongAccumulator(Math::max, 0);

  VerifyRecord(String kernelId, String executor, long order) {
    this.kernelId = kernelId;
    this.executor = executor;
    this.order = order;
  }
}
