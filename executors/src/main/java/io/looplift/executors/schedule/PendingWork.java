package io.looplift.executors.schedule;

import java.util.ArrayList;
import java.util.List;

/**
 * A work as the scheduler tracks it: what it touches, taken once when it is given to the scheduler, its
 * place in the dependency graph, and its ticket. Its mutable state (order, dependencies) is guarded by
 * the scheduler's lock.
 */
final class PendingWork {
  private final ScheduledWork work;
  private final Object[] reads;
  private final Object[] writes;
  private final long bytes;
  private final Ticket ticket = new Ticket();
  private final List<PendingWork> dependents = new ArrayList<>();
  private long seq;
  private boolean inline;
  private int unfinishedDependencies;

  /** Takes the work's arrays and size now, so that a work changing its answers cannot corrupt the table. */
  PendingWork(ScheduledWork work) {
    this.work = work;
    this.reads = work.reads().clone();
    this.writes = work.writes().clone();
    this.bytes = work.bytes();
    if (bytes < 0) throw new IllegalArgumentException("bytes " + bytes);
  }

  Object[] reads() { return reads; }

  Object[] writes() { return writes; }

  long bytes() { return bytes; }

  /** Whether the work runs on the thread that registered it rather than on a worker. */
  boolean inline() { return inline; }

  Ticket ticket() { return ticket; }

  /** Registration order: among ready works, the oldest runs first. */
  long seq() { return seq; }

  /** Fixes the work's place in registration order and whether it runs inline. */
  void registered(long seq, boolean inline) {
    this.seq = seq;
    this.inline = inline;
  }

  /** Makes {@code later} wait for this work. */
  void addDependent(PendingWork later) {
    dependents.add(later);
    later.unfinishedDependencies++;
  }

  List<PendingWork> dependents() { return dependents; }

  /** Counts one dependency as completed; true when that was the last one. */
  boolean dependencyCompleted() {
    return --unfinishedDependencies == 0;
  }

  boolean isReady() { return unfinishedDependencies == 0; }

  /** Runs the work and returns what it threw, {@code null} when nothing; Errors included, so a worker survives. */
  Throwable runCatching() {
    try {
      work.run();
      return null;
    } catch (Throwable e) {
      return e;
    }
  }
}
