package io.looplift.tracecache;

/**
 * A program borrowed from a {@link ProgramCache}: the program stays alive until the lease is closed, even if
 * the cache evicts it meanwhile. Close each lease exactly once; not thread-safe.
 *
 * @param <P> the program type
 */
public final class ProgramLease<P> implements AutoCloseable {
  private final ProgramCache.Entry<P> entry;
  private boolean closed;

  ProgramLease(ProgramCache.Entry<P> entry) {
    this.entry = entry;
  }

  /** The program; valid until {@link #close()}. */
  public P program() {
    if (closed) throw new IllegalStateException("lease closed");
    return entry.program;
  }

  /** Returns the program to the cache, releasing it if the cache has already dropped it. */
  @Override
  public void close() {
    if (closed) return;
    closed = true;
    entry.release();
  }
}
