package io.looplift.bridge;

/**
 * The daemon thread, {@code looplift-short-runs}, that tells the pipeline every
 * {@link LoopBridge#SHORT_RUNS_LOOK_MILLIS} ms of the loops whose short runs have made the mark
 * ({@link ShortRuns#tellMarked}): their counts, compiled into the program's code, only add. Started by the
 * first counter linked; it never stops the program, and stops with it.
 */
final class ShortRunWatch implements Runnable {
  private final ShortRuns runs;
  private boolean started; // guarded by this

  ShortRunWatch(ShortRuns runs) {
    this.runs = runs;
  }

  /** Starts the thread, once; a thread that cannot be made leaves loops unput back, nothing more. */
  synchronized void start() {
    if (started) return;
    started = true;
    try {
      Thread t = new Thread(this, "looplift-short-runs");
      t.setDaemon(true);
      t.setContextClassLoader(null);
      t.start();
    } catch (Throwable e) {
      // Out of memory or threads: the counts go on, untold.
    }
  }

  @Override
  public void run() {
    while (true) {
      try {
        Thread.sleep(LoopBridge.SHORT_RUNS_LOOK_MILLIS);
        runs.tellMarked();
      } catch (InterruptedException e) {
        return;
      } catch (Throwable e) {
        // What the pipeline does when told is its own affair; the watch goes on.
      }
    }
  }
}
