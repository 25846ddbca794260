package io.looplift.tracecache;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The cached sequences of a {@link TraceCache} that start with the same entry, at most {@code capacity} of
 * them, the least recently used dropped first. Thread-safe: every method holds the bucket's lock.
 *
 * @param <V> the cached value type
 */
final class TraceBucket<V> {

  /** What {@link #put} did. */
  enum PutOutcome {
    /** The key was cached already; its value is replaced. */
    REPLACED,
    /** The key is cached in addition to those already there. */
    ADDED,
    /** The key is cached in place of the least recently used sequence. */
    ADDED_EVICTING,
    /** Nothing: the bucket has left the cache and takes no more sequences. */
    RETIRED
  }

  private final int capacity;
  private final LinkedHashMap<TraceKey, V> sequences = new LinkedHashMap<>(16, 0.75f, true);
  private boolean retired;

  TraceBucket(int capacity) {
    this.capacity = capacity;
  }

  /** The cached sequence with the most entries that {@code acc} starts with, now most recently used. */
  synchronized TraceCache.Match<V> longestMatch(KeyAccumulator acc) {
    TraceKey best = null;
    for (TraceKey key : sequences.keySet()) {
      if ((best == null || key.entries() > best.entries()) && acc.startsWith(key)) best = key;
    }
    if (best == null) return null;
    return new TraceCache.Match<>(sequences.get(best), best.entries()); // get() refreshes recency
  }

  synchronized PutOutcome put(TraceKey key, V value) {
    if (retired) return PutOutcome.RETIRED;
    if (sequences.put(key, value) != null) return PutOutcome.REPLACED;
    if (sequences.size() <= capacity) return PutOutcome.ADDED;
    Iterator<Map.Entry<TraceKey, V>> eldest = sequences.entrySet().iterator();
    eldest.next();
    eldest.remove();
    return PutOutcome.ADDED_EVICTING;
  }

  /** Marks the bucket as out of the cache, so later puts go to a new one; returns the sequences it held. */
  synchronized int retire() {
    retired = true;
    return sequences.size();
  }
}
