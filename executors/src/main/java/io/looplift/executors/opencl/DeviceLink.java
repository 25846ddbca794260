package io.looplift.executors.opencl;

import io.looplift.executors.ExecutionException;
import io.looplift.progen.opencl.OpenClKernel;
import java.util.List;

/**
 * How an {@link OpenClExecutor} reaches its device: shared memory to stage a launch's arrays in, and a way
 * to run a {@link KernelLaunch} over it. In the program's JVM this is the OpenCL host process; tests also
 * run the device code in their own JVM through it. Thread-safe.
 */
public interface DeviceLink extends AutoCloseable {
  /**
   * Shared memory for one launch: one block of {@code blockBytes[b]} bytes for each {@code b}, which the
   * caller fills, names in a {@link KernelLaunch}, reads results from, and closes.
   *
   * @throws ExecutionException when that much shared memory cannot be had
   */
  Staging stage(long[] blockBytes) throws ExecutionException;

  /**
   * Runs {@code launch} of {@code kernel} to completion: on return, every buffer's read-back range is in its
   * pieces.
   *
   * @throws ExecutionException when the launch did not run to completion; the caller must then not use
   *     what its pieces hold
   */
  default LaunchTimings launch(OpenClKernel kernel, KernelLaunch launch) throws ExecutionException {
    return start(kernel, launch, 0).await();
  }

  /**
   * Starts {@code launch} of {@code kernel} on {@code lane}: the launches of a lane other than 0 run one after
   * another in the order they were started, so that a caller need not wait for one to start the next.
   *
   * @throws ExecutionException when the link failed
   */
  InFlight start(OpenClKernel kernel, KernelLaunch launch, int lane) throws ExecutionException;

  /** A launch started and not yet known to have completed. */
  interface InFlight {
    /**
     * Waits for the launch to complete: on return, every buffer's read-back range is in its pieces.
     *
     * @throws ExecutionException when the launch did not run to completion; the caller must then not use
     *     what its pieces hold
     */
    LaunchTimings await() throws ExecutionException;
  }

  /**
   * Copies the read-back range of each of {@code buffers}, which the device keeps (see
   * {@link KernelLaunch.Buffer#kept}), into its pieces once the launches started before on {@code lane} ran;
   * returns the nanoseconds the copies took.
   *
   * @throws ExecutionException when the copies did not complete; the caller must then not use what the
   *     pieces hold
   */
  long read(List<KernelLaunch.Buffer> buffers, int lane) throws ExecutionException;

  /** Frees the buffers the device keeps under {@code handles}; waits for nothing, never fails. */
  void release(long[] handles);

  /** False once the link has failed for good (its device side died or stopped answering) or was closed. */
  boolean usable();

  /** Ends the link and frees its shared memory; waits for nothing. */
  @Override
  void close();
}
