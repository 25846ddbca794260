package io.looplift.executors.schedule;

import io.looplift.executors.Uninterruptibly;
import java.util.concurrent.CountDownLatch;

/**
 * The completion of one work given to an {@link EScheduler}. A work completes whether or not it throws;
 * what it threw is kept here and never rethrown into the submitter. Thread-safe.
 */
public final class Ticket {
  private final CountDownLatch done = new CountDownLatch(1);
  private volatile Throwable failure;

  Ticket() {}

  /** Whether the work has completed, with or without failure. */
  public boolean isDone() {
    return done.getCount() == 0;
  }

  /**
   * Waits until the work has completed. Not interruptible: an interrupt while waiting is kept as the
   * thread's interrupt status, set again on return.
   */
  public void await() {
    Uninterruptibly.run(done::await);
  }

  /** What the work threw, or {@code null} when it ran without exception or has not completed yet. */
  public Throwable failure() {
    return failure;
  }

  void complete(Throwable failure) {
    this.failure = failure;
    done.countDown();
  }
}
