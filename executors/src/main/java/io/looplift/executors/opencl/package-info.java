/**
 * The OpenCL executor (JOCL): {@link io.looplift.executors.opencl.DeviceInventory} lists the platforms'
 * devices without ever failing, and {@link io.looplift.executors.opencl.OpenClExecutor} runs kernels from
 * {@link io.looplift.progen.opencl.OpenClGenerator} on one of them (a GPU, or a CPU device such as PoCL),
 * with programs cached in memory and as device binaries on disk.
 */
package io.looplift.executors.opencl;
