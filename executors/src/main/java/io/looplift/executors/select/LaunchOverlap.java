package io.looplift.executors.select;

/**
 * How many launches of one kernel the program's own threads run at once: a program that splits its work
 * between threads (ojAlgo's matrix product gives each of two threads half the columns) launches the kernel from
 * each of them together. The original bytecode then runs in every one of those threads at once, each on a
 * processor of its own, while an offload (the {@code jvm} executor's pool, a device) takes the processors or the
 * device for one launch after another. A launch counts as overlapping another thread's when it starts less than
 * the original bytecode's time for it after that one did. Not thread-safe: the caller holds the kernel's monitor.
 */
final class LaunchOverlap {
  /** How many of the latest launches are remembered: a few rounds of a handful of threads. */
  private static final int RECENT = 16;
  /** The thread of the entry that stands for an earlier run's launches: overlapping none of this run's. */
  private static final long EARLIER_RUN = -1;

  private final long[] threads = new long[RECENT];
  private final long[] starts = new long[RECENT];
  private final int[] overlaps = new int[RECENT];
  private int next;
  private int count;

  /**
   * Starts from {@code overlap} launches at once, as if among the latest: what an earlier run of the program
   * saw, until as many launches of this one have shown otherwise.
   */
  LaunchOverlap(int overlap) {
    overlaps[0] = Math.max(1, overlap);
    threads[0] = EARLIER_RUN;
    next = 1;
    count = 1;
  }

  /**
   * Records a launch by {@code thread} starting at {@code now} and returns the most launches that overlapped
   * among the latest ones, this one included: 1 plus the other threads that started one within {@code window}
   * nanoseconds before each of them (0 when nothing tells how long a launch takes).
   */
  int launch(long thread, long now, long window) {
    int others = 0;
    for (int k = 0; k < count; k++) {
      if (threads[k] != thread && threads[k] != EARLIER_RUN && now - starts[k] < window
          && !earlierFrom(threads[k], k, now, window)) {
        others++;
      }
    }
    threads[next] = thread;
    starts[next] = now;
    overlaps[next] = 1 + others;
    next = (next + 1) % RECENT;
    count = Math.min(RECENT, count + 1);
    int most = 1;
    for (int k = 0; k < count; k++) most = Math.max(most, overlaps[k]);
    return most;
  }

  /** Whether a thread other than {@code thread} started a launch after {@code from} and no later than {@code to}. */
  boolean othersStarted(long thread, long from, long to) {
    for (int k = 0; k < count; k++) {
      if (threads[k] != thread && threads[k] != EARLIER_RUN && starts[k] > from && starts[k] <= to) return true;
    }
    return false;
  }

  /** True when a launch of {@code thread} before index {@code k} is also in the window: it was counted there. */
  private boolean earlierFrom(long thread, int k, long now, long window) {
    for (int j = 0; j < k; j++) {
      if (threads[j] == thread && now - starts[j] < window) return true;
    }
    return false;
  }
}
