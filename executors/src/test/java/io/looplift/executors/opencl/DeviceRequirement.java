package io.looplift.executors.opencl;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What an OpenCL test does where no device is found: skip, except where {@link #SWITCH} is set (CI, which
 * installs PoCL), where it fails, so that a broken setup cannot pass as a skipped one. test-apps' end-to-end
 * tests read the same variable.
 */
public final class DeviceRequirement {
  /** The environment variable that turns a missing OpenCL device into a failure; {@code .ci/run} sets it. */
  public static final String SWITCH = "OPENCL_DEVICE_REQUIRED";

  private DeviceRequirement() {}

  /** Skips the calling test when {@code found} is false, or fails it under {@link #SWITCH}. */
  public static void require(boolean found, String reason) {
    if (!found && System.getenv(SWITCH) != null) fail(SWITCH + " is set, but there is no OpenCL device: " + reason);
    assumeTrue(found, () -> "no OpenCL device: " + reason);
  }
}
