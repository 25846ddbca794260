package io.looplift.executors.schedule;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Part of a test work's body: records that and on which thread it started and, if held, waits there until released. */
final class Probe implements TestWork.Body {
  private final CountDownLatch started = new CountDownLatch(1);
  private final CountDownLatch released;
  private volatile Thread thread;

  private Probe(boolean held) {
    released = new CountDownLatch(held ? 1 : 0);
  }

  /** A probe that holds its work until {@link #release()}. */
  static Probe held() {
    return new Probe(true);
  }

  /** A probe that lets its work go on at once. */
  static Probe free() {
    return new Probe(false);
  }

  @Override
  public void run() throws InterruptedException {
    thread = Thread.currentThread();
    started.countDown();
    // Bounded so that a failed test cannot leave a worker stuck for ever.
    if (!released.await(30, TimeUnit.SECONDS)) throw new AssertionError("probe never released");
  }

  boolean started() {
    return started.getCount() == 0;
  }

  /** The thread the work ran on; null before it started. */
  Thread thread() {
    return thread;
  }

  void release() {
    released.countDown();
  }
}
