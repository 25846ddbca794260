package io.looplift.executors.schedule;

/**
 * One unit of work for the {@link EScheduler}, typically a compiled program: an ordered list of kernel
 * launches. The scheduler reads {@link #reads()}, {@link #writes()} and {@link #bytes()} once, when the work
 * is submitted, and orders works by the arrays they name.
 */
public interface ScheduledWork {
  /** The arrays the work reads, compared by identity; {@code null} entries are ignored. */
  Object[] reads();

  /** The arrays the work writes, compared by identity; {@code null} entries are ignored. */
  Object[] writes();

  /** How many bytes the work touches, for flow control; not negative. */
  long bytes();

  /**
   * Does the work, including any executor fallbacks. Must not call the scheduler that runs it, nor wait for
   * that scheduler's tickets: the scheduler may be waiting for this work.
   *
   * @throws Exception when the work failed; the scheduler records it on the work's {@link Ticket}
   */
  void run() throws Exception;
}
