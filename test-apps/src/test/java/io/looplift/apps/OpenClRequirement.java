package io.looplift.apps;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What an end-to-end test that needs OpenCL (or a way to hide it) does where it is missing: skip, except
 * where {@link #SWITCH} is set (CI, which installs PoCL), where it fails, so that a broken setup cannot pass
 * as a skipped test. The executors module's OpenCL tests read the same variable ({@code DeviceRequirement}).
 */
final class OpenClRequirement {
  /** The environment variable {@code .ci/run} sets. */
  static final String SWITCH = "OPENCL_DEVICE_REQUIRED";

  private OpenClRequirement() {}

  /** Skips the calling test when {@code present} is false, or fails it under {@link #SWITCH}. */
  static void require(boolean present, String what) {
    if (!present && System.getenv(SWITCH) != null) fail(SWITCH + " is set, but " + what);
    assumeTrue(present, what);
  }
}
