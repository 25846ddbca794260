package io.looplift.tracecache;

import java.util.concurrent.atomic.LongAdder;

/**
 * Compiled sequences of loop launches, found by the longest cached prefix of a thread's queued entries.
 *
 * <p>Sequences are grouped in buckets by the key of their first entry. A lookup finds the bucket of the
 * queue's first entry, then the cached sequence with the most entries that the queue starts with; the
 * caller runs that sequence's value and handles the remaining entries itself.
 *
 * <p>Two bounds: each bucket keeps at most {@code maxPerBucket} sequences, evicting the least recently
 * used; at most {@code maxBuckets} buckets are kept, the least recently used dropped first. Evictions
 * from both levels are counted, per sequence.
 *
 * <p>Thread-safe.
 *
 * @param <V> the cached value type (a compiled program, opaque here)
 */
public final class TraceCache<V> {

  /**
   * A cached sequence that the looked-up queue starts with.
   *
   * @param value the cached value
   * @param entries how many of the queue's first entries it covers
   */
  public record Match<V>(V value, int entries) {}

  private final LruMap<TraceKey, TraceBucket<V>> buckets;
  private final int maxPerBucket;
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();
  private final LongAdder evictions = new LongAdder();
  private final LongAdder size = new LongAdder();

  /**
   * @param maxBuckets the most distinct first entries kept (at least 1)
   * @param maxPerBucket the most sequences kept per first entry (at least 1)
   */
  public TraceCache(int maxBuckets, int maxPerBucket) {
    if (maxBuckets < 1) throw new IllegalArgumentException("maxBuckets " + maxBuckets);
    if (maxPerBucket < 1) throw new IllegalArgumentException("maxPerBucket " + maxPerBucket);
    this.maxPerBucket = maxPerBucket;
    this.buckets = new LruMap<>(maxBuckets, (first, bucket, evicted) -> {
      int dropped = bucket.retire();
      size.add(-dropped);
      if (evicted) evictions.add(dropped);
    });
  }

  /**
   * The cached sequence with the most entries whose key is that of the first {@code n <= acc.entries()}
   * entries of {@code acc}, or null when there is none. Counts one hit or one miss.
   */
  public Match<V> longestMatch(KeyAccumulator acc) {
    TraceBucket<V> bucket = acc.entries() == 0 ? null : buckets.getIfPresent(acc.key(1));
    Match<V> match = bucket == null ? null : bucket.longestMatch(acc);
    (match == null ? misses : hits).increment();
    return match;
  }

  /** Caches {@code value} for the sequence {@code key}, replacing any value it had. */
  public void put(TraceKey key, V value) {
    if (key.entries() == 0) throw new IllegalArgumentException("a key without entries");
    if (value == null) throw new NullPointerException("value");
    TraceKey first = key.firstEntry();
    for (;;) {
      TraceBucket<V> bucket = buckets.get(first, k -> new TraceBucket<>(maxPerBucket));
      switch (bucket.put(key, value)) {
        case ADDED:
          size.increment();
          return;
        case ADDED_EVICTING:
          evictions.increment();
          return;
        case REPLACED:
          return;
        case RETIRED:
          break; // evicted between the lookup and the put: put into its successor
      }
    }
  }

  /** Counters for the report. */
  public CacheStats stats() {
    return new CacheStats(hits.sum(), misses.sum(), evictions.sum(), size.sum());
  }
}
