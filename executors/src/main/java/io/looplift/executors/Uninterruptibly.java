package io.looplift.executors;

/**
 * Waits that an interrupt does not cut short: LoopLift's threads wait for work that always finishes, and
 * an interrupt meant for the program must not leave a half-done launch behind. The interrupt status is set
 * again once the wait is over.
 */
public final class Uninterruptibly {
  /** A wait that may be interrupted, such as {@code latch::await} or {@code thread::join}. */
  public interface Wait {
    void run() throws InterruptedException;
  }

  private Uninterruptibly() {}

  /** Runs {@code wait} until it returns without being interrupted. */
  public static void run(Wait wait) {
    boolean interrupted = false;
    while (true) {
      try {
        wait.run();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) Thread.currentThread().interrupt();
  }
}
