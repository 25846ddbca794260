package io.looplift.executors.opencl;

/**
 * Where a launch's time went on the device side, in nanoseconds of the device side's clock.
 *
 * @param programNanos getting the program: from memory, a binary on disk, or the compiler
 * @param transferInNanos creating the buffers and copying the arrays to the device
 * @param kernelNanos running the kernel
 * @param transferOutNanos copying the results back into shared memory
 */
public record LaunchTimings(long programNanos, long transferInNanos, long kernelNanos, long transferOutNanos) {}
