package io.looplift.profiler;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * How many launches each executor ran, for one site or one kernel. Thread-safe; counting an executor seen
 * before costs a map lookup and a {@link LongAdder} increment, no lock.
 */
final class ExecutorCounts {
  /** Stands in for a null executor name, which the map cannot hold. */
  private static final String UNKNOWN = "unknown";

  private final Map<String, LongAdder> counts = new ConcurrentHashMap<>(4);

  void add(String executor) {
    String key = executor == null ? UNKNOWN : executor;
    LongAdder n = counts.get(key);
    if (n == null) n = counts.computeIfAbsent(key, k -> new LongAdder());
    n.increment();
  }

  /** The executor with the most launches (ties go to the smaller name), or null when none ran. */
  String mostUsed() {
    String best = null;
    long bestCount = 0;
    for (Map.Entry<String, LongAdder> e : counts.entrySet()) {
      long n = e.getValue().sum();
      if (n > bestCount || (n == bestCount && n > 0 && e.getKey().compareTo(best) < 0)) {
        best = e.getKey();
        bestCount = n;
      }
    }
    return best;
  }
}
