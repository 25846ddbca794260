package io.looplift.tracecache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * Compiled whole method regions. A region is a fixed run of consecutive loops in one method, numbered when
 * its class was rewritten; one region may run with several shapes (the {@link TraceKey} of its entries),
 * each with its own value.
 *
 * <p>Thread-safe; bounded by Caffeine (W-TinyLFU), whose maintenance runs on the calling thread.
 *
 * @param <V> the cached value type (a compiled program, opaque here)
 */
public final class MacroCache<V> {
  private record RegionShape(int regionId, TraceKey shape) {}

  private final Cache<RegionShape, V> regions;

  /** @param maxEntries the most (region, shape) pairs kept (at least 1) */
  public MacroCache(long maxEntries) {
    if (maxEntries < 1) throw new IllegalArgumentException("maxEntries " + maxEntries);
    this.regions = Caffeine.newBuilder()
        .maximumSize(maxEntries)
        .executor(Runnable::run)
        .recordStats()
        .build();
  }

  /** The value cached for region {@code regionId} run with {@code shape}, or null. Counts a hit or a miss. */
  public V get(int regionId, TraceKey shape) {
    return regions.getIfPresent(new RegionShape(regionId, shape));
  }

  /** Caches {@code value} for region {@code regionId} run with {@code shape}, replacing any it had. */
  public void put(int regionId, TraceKey shape, V value) {
    regions.put(new RegionShape(regionId, shape), value);
  }

  /** Counters for the report, after any pending eviction has run. */
  public CacheStats stats() {
    regions.cleanUp();
    var s = regions.stats(); // Caffeine's own CacheStats
    return new CacheStats(s.hitCount(), s.missCount(), s.evictionCount(), regions.estimatedSize());
  }
}
