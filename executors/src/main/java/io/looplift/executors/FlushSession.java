package io.looplift.executors;

/**
 * Consecutive launches of one flush on one executor that keeps their arrays on its device between them: an
 * array goes to the device once, with the first launch that uses it, later launches use the device's copy,
 * and what the launches wrote comes back into the program's arrays only at {@link #commit}. One thread uses
 * a session; nothing else may touch the arrays of its launches until they are committed.
 *
 * <p>Until {@link #commit} succeeds, the program's arrays hold what they held before the session's first
 * uncommitted launch: when {@link #execute} or {@link #commit} fails, the caller runs every uncommitted
 * launch again elsewhere, in order, from its accumulators' values before it ran, and gets the same results.
 */
public interface FlushSession extends AutoCloseable {
  /**
   * True when this session can run {@code launch} (a launch it does not take runs on the executor as usual,
   * after a {@link #commit}).
   */
  boolean takes(Launch launch);

  /**
   * Runs {@code launch}, which this session {@link #takes}; the arrays it writes may stay on the device until
   * {@link #commit}, its accumulators are the caller's at once.
   *
   * @return true when the launch ran to completion, false when it may still be running: its
   *     {@link Launch#spent} figures are then filled in by the {@link #commit}, and its failure surfaces at
   *     a later {@link #execute} or the commit
   * @throws ExecutionException when the launch (or one still running before it) failed; the device's copies
   *     may then be wrong, and the session forgets them: every uncommitted launch must run again elsewhere
   */
  boolean execute(Launch launch, ExecutionOptions options) throws ExecutionException;

  /**
   * Copies what the uncommitted launches wrote into the program's arrays, all of it or (on failure) none.
   *
   * @return the transfer it took
   * @throws ExecutionException when the results could not be read back; the program's arrays are then
   *     untouched and the session forgets its copies
   */
  Transfer commit() throws ExecutionException;

  /**
   * Forgets the device's copies of {@code arrays} (and of the rows of those that are arrays of arrays),
   * which something other than this session changed; the session must have nothing uncommitted.
   */
  void changed(Object[] arrays);

  /**
   * Says that nothing reads {@code array} after the flush (the storage of a temporary array the flush's
   * loops share): {@link #commit} need not give back what launches write into it.
   */
  void unread(Object array);

  /** Waits for what is still running, then frees the device's copies; what is uncommitted is lost. */
  @Override
  void close();

  /**
   * Bytes copied back from the device and the time it took.
   *
   * @param nanos the time of the copies
   * @param bytes how many bytes
   */
  record Transfer(long nanos, long bytes) {
    /** No transfer. */
    public static final Transfer NONE = new Transfer(0, 0);
  }
}
