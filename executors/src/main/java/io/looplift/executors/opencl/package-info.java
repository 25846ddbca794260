/**
 * The OpenCL executor. The program's JVM never loads JOCL or an OpenCL driver: a driver may replace the
 * signal handlers HotSpot relies on for Java's exceptions and shutdown hooks, and may print to stdout.
 *
 * <ul>
 *   <li>This package runs in the program's JVM: {@link io.looplift.executors.opencl.OpenClExecutorProvider}
 *       checks for an OpenCL library by reading files ({@link io.looplift.executors.opencl.OpenClLibraries})
 *       and {@link io.looplift.executors.opencl.OpenClExecutor} plans launches of kernels from
 *       {@link io.looplift.progen.opencl.OpenClGenerator}: their NDRange
 *       ({@link io.looplift.executors.opencl.LaunchGeometry}), their arrays staged in shared memory
 *       ({@link io.looplift.executors.opencl.SegmentPool}; arrays of arrays flattened,
 *       {@link io.looplift.executors.opencl.ArrayArgument}), and the results written back once they succeeded,
 *       over the elements stores can reach ({@link io.looplift.executors.opencl.Reach}).
 *   <li>{@link io.looplift.executors.opencl.host} starts and talks to the OpenCL host process, a child JVM
 *       that owns the driver, over pipes and shared memory.
 *   <li>{@link io.looplift.executors.opencl.device} is the JOCL code the host runs: device discovery, and
 *       programs (cached in memory and as device binaries on disk), buffers and kernels on one device.
 * </ul>
 */
package io.looplift.executors.opencl;
