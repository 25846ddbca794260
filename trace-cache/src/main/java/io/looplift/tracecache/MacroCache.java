package io.looplift.tracecache;

/**
 * Compiled whole method regions. A region is a fixed run of consecutive loops in one method, numbered when
 * its class was rewritten; one region may run with several shapes (the {@link TraceKey} of its entries),
 * each with its own value.
 *
 * <p>Thread-safe; bounded, the least recently used pair dropped first.
 *
 * @param <V> the cached value type (a compiled program, opaque here)
 */
public final class MacroCache<V> {
  private record RegionShape(int regionId, TraceKey shape) {}

  private final LruMap<RegionShape, V> regions;

  /** @param maxEntries the most (region, shape) pairs kept (at least 1) */
  public MacroCache(long maxEntries) {
    if (maxEntries < 1) throw new IllegalArgumentException("maxEntries " + maxEntries);
    this.regions = new LruMap<>(maxEntries, (key, value, evicted) -> {});
  }

  /** The value cached for region {@code regionId} run with {@code shape}, or null. Counts a hit or a miss. */
  public V get(int regionId, TraceKey shape) {
    return regions.getIfPresent(new RegionShape(regionId, shape));
  }

  /** Caches {@code value} for region {@code regionId} run with {@code shape}, replacing any it had. */
  public void put(int regionId, TraceKey shape, V value) {
    regions.put(new RegionShape(regionId, shape), value);
  }

  /** Counters for the report. */
  public CacheStats stats() {
    LruMap.Counts c = regions.counts();
    return new CacheStats(c.hits(), c.misses(), c.evictions(), regions.size());
  }
}
