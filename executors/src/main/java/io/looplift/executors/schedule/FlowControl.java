package io.looplift.executors.schedule;

/**
 * Counts the works handed to the workers and not yet completed, and their bytes, against the scheduler's
 * limits, and how often and how long submitters were held back. Not thread-safe: the scheduler's lock
 * guards it.
 */
final class FlowControl {
  private final int maxWorks;
  private final long maxBytes;
  private int works;
  private long bytes;
  private int maxWorksSeen;
  private long holdBacks;
  private long holdBackNanos;

  FlowControl(int maxWorks, long maxBytes) {
    if (maxWorks < 1) throw new IllegalArgumentException("maxOutstanding " + maxWorks);
    if (maxBytes < 1) throw new IllegalArgumentException("maxOutstandingBytes " + maxBytes);
    this.maxWorks = maxWorks;
    this.maxBytes = maxBytes;
  }

  /** Whether a work of {@code size} bytes may enter now; one over the byte limit enters when nothing is outstanding. */
  boolean admits(long size) {
    // maxBytes - bytes rather than bytes + size: cannot overflow.
    return works == 0 || (works < maxWorks && size <= maxBytes - bytes);
  }

  void enter(long size) {
    works++;
    bytes += size;
    maxWorksSeen = Math.max(maxWorksSeen, works);
  }

  void leave(long size) {
    works--;
    bytes -= size;
  }

  /** Works entered and not yet left. */
  int outstanding() { return works; }

  /** Records one submitter held back for {@code nanos}. */
  void heldBack(long nanos) {
    holdBacks++;
    holdBackNanos += nanos;
  }

  int maxOutstandingSeen() { return maxWorksSeen; }

  long holdBacks() { return holdBacks; }

  long holdBackNanos() { return holdBackNanos; }
}
