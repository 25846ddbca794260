package io.looplift.tracecache;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The bounded map behind this module's caches: at most {@code maxSize} entries, the least recently used
 * dropped first, and a value computed once per key however many threads miss it together.
 *
 * <p>Written here rather than taken from Caffeine, which the project used before: Caffeine's classes ask
 * {@code System.getLogger} for a logger as they initialize, and from a class loader outside the JDK that
 * initializes {@code java.util.logging} in the program at its first offloaded loop, so a program that then
 * installs its own {@code LogManager} or logging configuration no longer got it.
 *
 * <p>Thread-safe. Removals are told to the listener on the thread that caused them, outside the map's lock;
 * a value is computed outside it too.
 *
 * @param <K> the key type, with value equality
 * @param <V> the value type
 */
final class LruMap<K, V> {
  /** Told of each entry that leaves the map. */
  interface RemovalListener<K, V> {
    /** {@code evicted}: dropped for size, rather than replaced or cleared. */
    void removed(K key, V value, boolean evicted);
  }

  /**
   * Counters since construction.
   *
   * @param hits lookups that found a value (including a wait for another thread's computation)
   * @param misses lookups that found none
   * @param evictions entries dropped for size
   */
  record Counts(long hits, long misses, long evictions) {}

  private final int maxSize;
  private final RemovalListener<K, V> listener;
  private final LinkedHashMap<K, V> entries = new LinkedHashMap<>(16, 0.75f, true); // guarded by this
  private final Map<K, Computation<V>> computing = new HashMap<>(); // guarded by this
  private long hits; // guarded by this
  private long misses; // guarded by this
  private long evictions; // guarded by this

  LruMap(long maxSize, RemovalListener<K, V> listener) {
    if (maxSize < 1) throw new IllegalArgumentException("maxSize " + maxSize);
    this.maxSize = (int) Math.min(maxSize, Integer.MAX_VALUE);
    this.listener = listener;
  }

  /** The value of {@code key}, or null; counts a hit or a miss. */
  V getIfPresent(K key) {
    synchronized (this) {
      V v = entries.get(key);
      if (v == null) misses++;
      else hits++;
      return v;
    }
  }

  /**
   * The value of {@code key}, computed by {@code compute} (which must not return null) when there is none.
   * Threads that miss a key another thread is computing wait for its value; when that computation throws,
   * they compute it themselves. An exception of {@code compute} reaches its caller as thrown.
   */
  V get(K key, Function<? super K, ? extends V> compute) {
    for (;;) {
      Computation<V> theirs;
      Computation<V> mine = null;
      synchronized (this) {
        V v = entries.get(key);
        if (v != null) {
          hits++;
          return v;
        }
        theirs = computing.get(key);
        if (theirs == null) {
          misses++;
          mine = new Computation<>();
          computing.put(key, mine);
        }
      }
      if (theirs != null) {
        V v = theirs.await();
        if (v != null) {
          synchronized (this) {
            hits++;
          }
          return v;
        }
        continue; // their computation failed: try again, perhaps computing it here
      }
      V v = null;
      try {
        v = compute.apply(key);
        if (v == null) throw new NullPointerException("computed a null value for " + key);
        put(key, v, mine);
        return v;
      } finally {
        if (v == null) {
          synchronized (this) {
            computing.remove(key);
          }
        }
        mine.complete(v);
      }
    }
  }

  /** Maps {@code key} to {@code value}, replacing any value it had. */
  void put(K key, V value) {
    put(key, value, null);
  }

  private void put(K key, V value, Computation<V> finished) {
    List<Map.Entry<K, V>> evicted = new ArrayList<>(1);
    V replaced;
    synchronized (this) {
      if (finished != null) computing.remove(key, finished);
      replaced = entries.put(key, value);
      Iterator<Map.Entry<K, V>> eldest = entries.entrySet().iterator();
      while (entries.size() > maxSize) {
        Map.Entry<K, V> e = eldest.next();
        evicted.add(Map.entry(e.getKey(), e.getValue()));
        eldest.remove();
        evictions++;
      }
    }
    if (replaced != null && replaced != value) listener.removed(key, replaced, false);
    for (Map.Entry<K, V> e : evicted) listener.removed(e.getKey(), e.getValue(), true);
  }

  /** Removes every entry. */
  void clear() {
    List<Map.Entry<K, V>> removed;
    synchronized (this) {
      removed = new ArrayList<>(entries.entrySet());
      entries.clear();
    }
    for (Map.Entry<K, V> e : removed) listener.removed(e.getKey(), e.getValue(), false);
  }

  /** The number of entries now. */
  synchronized long size() {
    return entries.size();
  }

  synchronized Counts counts() {
    return new Counts(hits, misses, evictions);
  }

  /** One thread's computation of a value that others may wait for. */
  private static final class Computation<V> {
    private boolean done; // guarded by this
    private V value; // guarded by this; null when the computation failed

    synchronized void complete(V v) {
      value = v;
      done = true;
      notifyAll();
    }

    /** The computed value, or null when the computation failed. */
    synchronized V await() {
      boolean interrupted = false;
      while (!done) {
        try {
          wait();
        } catch (InterruptedException e) {
          interrupted = true; // the value is coming; keep the interrupt for the caller
        }
      }
      if (interrupted) Thread.currentThread().interrupt();
      return value;
    }
  }
}
