package io.looplift.executors.schedule;

import io.looplift.executors.Uninterruptibly;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Runs works (compiled programs) on daemon worker threads while the threads that submit them go on, keeping
 * every array's reads and writes in the order the works were submitted.
 *
 * <p>Each work enters a pending-operation table keyed by array identity, which holds, per array, the last
 * in-flight writer and the in-flight readers since that write. A new work waits for the last writer of each
 * array it reads, and for the last writer and those readers of each array it writes. Once its dependencies
 * have completed it is ready; workers take ready works oldest first. Works touching the same arrays thus run
 * in submission order, and independent works run concurrently. A completed work leaves the table, whether
 * or not it threw.
 *
 * <p>Flow control: {@link #submit} blocks while {@code maxOutstanding} submitted works are outstanding, or
 * while the new work's bytes would take the outstanding bytes over {@code maxOutstandingBytes}; a work over
 * the byte limit on its own is let in when nothing is outstanding. {@link #runInline} is never held back and
 * does not count toward the limits: its caller runs it.
 *
 * <p>The workers ({@code threadNamePrefix} and a number from 1) are started by the constructor. Workers only
 * ever wait for ready work, never for a program thread, so outstanding work always finishes. Thread-safe.
 */
public final class EScheduler implements AutoCloseable {
  private final ReentrantLock lock = new ReentrantLock();
  /** Signalled when a work joins the ready queue, and when closing leaves the workers nothing to wait for. */
  private final Condition workReady = lock.newCondition();
  /** Signalled when a submitted work completes, and on close. */
  private final Condition capacityFreed = lock.newCondition();
  /** Signalled when the last dependency of an inline work completes. */
  private final Condition inlineReady = lock.newCondition();
  private final PendingOperationTable table = new PendingOperationTable();
  private final PriorityQueue<PendingWork> ready = new PriorityQueue<>(Comparator.comparingLong(PendingWork::seq));
  private final FlowControl flow;
  private final List<Thread> workerThreads;
  private long nextSeq;
  private long submitted;
  private long inline;
  private long completed;
  private long failed;
  private boolean closed;

  /**
   * What a scheduler has done so far. Once every ticket is done, {@code completed == submitted + inline}.
   *
   * @param submitted works handed to the workers by {@link #submit}
   * @param inline works run on their caller: by {@link #runInline}, and by {@link #submit} after close
   * @param completed works finished, with or without failure
   * @param failed completed works that threw
   * @param backPressureWaits submits that flow control held back
   * @param backPressureNanos total time those submits were held back
   * @param maxOutstandingSeen the most submitted works outstanding at once
   */
  public record Stats(
      long submitted, long inline, long completed, long failed,
      long backPressureWaits, long backPressureNanos, int maxOutstandingSeen) {}

  /**
   * A scheduler with {@code workers} daemon threads, started now.
   *
   * @param threadNamePrefix worker thread names are this followed by 1, 2, ...
   * @param workers worker threads, at least 1
   * @param maxOutstanding submitted works that may be outstanding before {@link #submit} blocks, at least 1
   * @param maxOutstandingBytes bytes that outstanding submitted works may touch, at least 1
   */
  public EScheduler(String threadNamePrefix, int workers, int maxOutstanding, long maxOutstandingBytes) {
    Objects.requireNonNull(threadNamePrefix, "threadNamePrefix");
    if (workers < 1) throw new IllegalArgumentException("workers " + workers);
    flow = new FlowControl(maxOutstanding, maxOutstandingBytes);
    List<Thread> threads = new ArrayList<>(workers);
    for (int i = 1; i <= workers; i++) {
      Thread t = new Thread(this::workLoop, threadNamePrefix + i);
      t.setDaemon(true);
      t.setContextClassLoader(null);
      threads.add(t);
    }
    workerThreads = List.copyOf(threads);
    // Started now, not on the first submit: a thread created from application code would inherit that
    // code's context class loader and access-control context and keep its class loader alive.
    for (Thread t : workerThreads) t.start();
  }

  /**
   * Registers {@code work} to run on a worker once the works it depends on have completed, and returns at
   * once, after waiting for flow control if outstanding work is at a limit. That wait is not interruptible;
   * an interrupt is kept as the interrupt status. After {@link #close}, runs the work inline instead.
   *
   * @throws IllegalArgumentException when {@code work.bytes()} is negative
   */
  public Ticket submit(ScheduledWork work) {
    Objects.requireNonNull(work, "work");
    PendingWork pending = new PendingWork(work);
    lock.lock();
    try {
      awaitCapacity(pending.bytes());
      if (!closed) {
        register(pending, false);
        submitted++;
        flow.enter(pending.bytes());
        if (pending.isReady()) makeReady(pending);
        return pending.ticket();
      }
    } finally {
      lock.unlock();
    }
    return runInline(pending);
  }

  /**
   * Registers {@code work} as {@link #submit} does, so that later works see it, waits for the works it
   * depends on, runs it on the calling thread, and returns its completed ticket. For a caller that would
   * wait for the result anyway: it saves handing the work to a worker. The wait is not interruptible; an
   * interrupt is kept as the interrupt status.
   *
   * @throws IllegalArgumentException when {@code work.bytes()} is negative
   */
  public Ticket runInline(ScheduledWork work) {
    Objects.requireNonNull(work, "work");
    return runInline(new PendingWork(work));
  }

  private Ticket runInline(PendingWork pending) {
    lock.lock();
    try {
      register(pending, true);
      inline++;
      while (!pending.isReady()) inlineReady.awaitUninterruptibly();
    } finally {
      lock.unlock();
    }
    finish(pending, pending.runCatching());
    return pending.ticket();
  }

  /** A snapshot of the counters. */
  public Stats stats() {
    lock.lock();
    try {
      return new Stats(submitted, inline, completed, failed,
          flow.holdBacks(), flow.holdBackNanos(), flow.maxOutstandingSeen());
    } finally {
      lock.unlock();
    }
  }

  /**
   * Stops accepting work for the workers (later submits run inline), and waits until outstanding work has
   * finished and the workers have ended. Called again, only waits.
   */
  @Override
  public void close() {
    lock.lock();
    try {
      closed = true;
      workReady.signalAll();
      capacityFreed.signalAll();
    } finally {
      lock.unlock();
    }
    for (Thread t : workerThreads) Uninterruptibly.run(t::join);
  }

  private void awaitCapacity(long bytes) {
    if (closed || flow.admits(bytes)) return;
    long start = System.nanoTime();
    while (!closed && !flow.admits(bytes)) capacityFreed.awaitUninterruptibly();
    flow.heldBack(System.nanoTime() - start);
  }

  private void register(PendingWork pending, boolean runsInline) {
    pending.registered(nextSeq++, runsInline);
    for (PendingWork earlier : table.register(pending)) earlier.addDependent(pending);
  }

  private void makeReady(PendingWork pending) {
    if (pending.inline()) {
      inlineReady.signalAll();
    } else {
      ready.add(pending);
      workReady.signal();
    }
  }

  /** Completes the ticket and releases the dependents in one step, so a done ticket is out of the table. */
  private void finish(PendingWork pending, Throwable failure) {
    lock.lock();
    try {
      pending.ticket().complete(failure);
      completed++;
      if (failure != null) failed++;
      table.remove(pending);
      for (PendingWork later : pending.dependents()) {
        if (later.dependencyCompleted()) makeReady(later);
      }
      if (!pending.inline()) {
        flow.leave(pending.bytes());
        capacityFreed.signalAll();
        if (closed && flow.outstanding() == 0) workReady.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  private void workLoop() {
    for (PendingWork pending = nextReady(); pending != null; pending = nextReady()) {
      Thread.interrupted(); // an interrupt left by one work must not reach the next
      finish(pending, pending.runCatching());
    }
  }

  /** The oldest ready work, waiting for one; {@code null} once closed with nothing outstanding. */
  private PendingWork nextReady() {
    lock.lock();
    try {
      while (ready.isEmpty()) {
        if (closed && flow.outstanding() == 0) return null;
        try {
          workReady.await();
        } catch (InterruptedException e) {
          // Only close ends a worker.
        }
      }
      return ready.poll();
    } finally {
      lock.unlock();
    }
  }
}
