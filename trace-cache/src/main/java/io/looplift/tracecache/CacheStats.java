package io.looplift.tracecache;

/**
 * Counters of a {@link TraceCache} or {@link MacroCache} since construction.
 *
 * @param hits lookups that found a cached value
 * @param misses lookups that found none
 * @param evictions cached values dropped for size
 * @param size the number of values cached now
 */
public record CacheStats(long hits, long misses, long evictions, long size) {}
