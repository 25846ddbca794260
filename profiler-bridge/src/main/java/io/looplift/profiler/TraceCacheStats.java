package io.looplift.profiler;

/**
 * Trace-cache totals for the report.
 *
 * @param hits flushes (or parts of one) that reused a compiled program sequence
 * @param misses flushes that needed ProgGen
 * @param evictions cached sequences dropped for size
 * @param regionHits region fast paths that reused the compiled program of their region and shape
 * @param regionMisses region fast paths that needed ProgGen
 */
public record TraceCacheStats(long hits, long misses, long evictions, long regionHits, long regionMisses) {
  /** No trace cache (yet). */
  public static final TraceCacheStats NONE = new TraceCacheStats(0, 0, 0, 0, 0);
}
