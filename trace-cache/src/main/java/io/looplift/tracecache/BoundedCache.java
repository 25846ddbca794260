package io.looplift.tracecache;

/**
 * A bounded in-memory cache of values computed once per key, least recently used evicted first: what
 * executors keep their generated kernels in. Thread-safe; concurrent misses of one key compute it once,
 * the other callers waiting for that result. Keys are held strongly, so they must not reference
 * application class loaders.
 *
 * @param <K> the key type, with value equality
 * @param <V> the value type
 */
public final class BoundedCache<K, V> {
  /**
   * Computes the value of a key that is not cached.
   *
   * @param <E> what the computation may throw
   */
  public interface Loader<K, V, E extends Exception> {
    V load(K key) throws E;
  }

  private final LruMap<K, V> values;

  /** A cache holding at most {@code maximumSize} values. */
  public BoundedCache(long maximumSize) {
    if (maximumSize < 1) throw new IllegalArgumentException("maximumSize " + maximumSize);
    values = new LruMap<>(maximumSize, (key, value, evicted) -> {});
  }

  /**
   * The value of {@code key}, computed by {@code loader} when it is not cached. A loader that throws
   * caches nothing, and the exception reaches the caller as thrown.
   */
  public <E extends Exception> V get(K key, Loader<? super K, ? extends V, E> loader) throws E {
    try {
      return values.get(key, k -> {
        try {
          return loader.load(k);
        } catch (RuntimeException | Error e) {
          throw e;
        } catch (Exception e) {
          throw new LoaderFailure(e);
        }
      });
    } catch (LoaderFailure f) {
      @SuppressWarnings("unchecked") // only the loader's own E is wrapped
      E e = (E) f.getCause();
      throw e;
    }
  }

  /** The number of values cached now. */
  public long size() {
    return values.size();
  }

  /** Carries a loader's checked exception through the map's computation. */
  private static final class LoaderFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    LoaderFailure(Exception cause) { super(cause); }
  }
}
