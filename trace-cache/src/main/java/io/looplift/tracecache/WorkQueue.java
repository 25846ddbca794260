package io.looplift.tracecache;

import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * One program thread's deferred work: entries kept in submission order and handed to a runner, oldest
 * first, when the thread reaches a read point ({@link #flush()}) or the queue reaches its length limit.
 *
 * <p>Not thread-safe: each program thread owns its queue. The runner may add to the queue it is flushing;
 * such entries run in the same flush. If the runner throws, the entry it was given is dropped, the
 * exception propagates, and the entries after it stay queued in order for the next flush.
 *
 * @param <E> the entry type; the queue knows nothing about what an entry means
 */
public final class WorkQueue<E> {
  private final ArrayDeque<E> entries = new ArrayDeque<>();
  private final int limit;
  private final Consumer<? super E> runner;

  /**
   * @param limit the length at which {@link #add} flushes by itself (at least 1)
   * @param runner runs one entry; called on the owning thread only
   */
  public WorkQueue(int limit, Consumer<? super E> runner) {
    if (limit < 1) throw new IllegalArgumentException("limit " + limit);
    if (runner == null) throw new NullPointerException("runner");
    this.limit = limit;
    this.runner = runner;
  }

  /** Appends {@code entry}; when the queue then holds {@code limit} entries, flushes it. */
  public void add(E entry) {
    if (entry == null) throw new NullPointerException("entry");
    entries.addLast(entry);
    if (entries.size() >= limit) flush();
  }

  /** Runs every queued entry in order and leaves the queue empty (unless the runner throws). */
  public void flush() {
    E e;
    // Entries leave the queue one at a time so that a throwing runner loses only its own entry.
    while ((e = entries.pollFirst()) != null) runner.accept(e);
  }

  /** The number of entries waiting. */
  public int size() { return entries.size(); }

  public boolean isEmpty() { return entries.isEmpty(); }
}
