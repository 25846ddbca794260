package io.looplift.executors.schedule;

import java.util.concurrent.CountDownLatch;

/** Waits that an interrupt does not cut short; the interrupt status is set again once the wait is over. */
final class Uninterruptibly {
  private Uninterruptibly() {}

  static void await(CountDownLatch latch) {
    boolean interrupted = false;
    while (true) {
      try {
        latch.await();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) Thread.currentThread().interrupt();
  }

  static void join(Thread thread) {
    boolean interrupted = false;
    while (true) {
      try {
        thread.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) Thread.currentThread().interrupt();
  }
}
