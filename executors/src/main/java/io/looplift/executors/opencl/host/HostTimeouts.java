package io.looplift.executors.opencl.host;

import java.time.Duration;

/**
 * How long the program's JVM waits for the OpenCL host before it gives up on it for good.
 *
 * @param start from starting the process to its device inventory (a JVM start and the driver's discovery)
 * @param request for opening a device or mapping shared memory
 * @param launch for one launch: building its program if needed, the transfers and the kernel
 */
public record HostTimeouts(Duration start, Duration request, Duration launch) {
  /** 30 s to start, 30 s per request, 2 minutes per launch. */
  public static final HostTimeouts DEFAULT = new HostTimeouts(Duration.ofSeconds(30), Duration.ofSeconds(30),
      Duration.ofMinutes(2));
}
