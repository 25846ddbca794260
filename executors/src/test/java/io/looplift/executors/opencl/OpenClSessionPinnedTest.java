package io.looplift.executors.opencl;

import io.looplift.executors.ExecutionException;
import java.nio.file.Path;

/** The flush-session cases with the device code in this JVM, moving arrays through pinned memory as for a discrete GPU. */
class OpenClSessionPinnedTest extends OpenClSessionCases {
  @Override
  OpenClExecutor open(Path cacheDir) throws ExecutionException {
    return OpenClTestSupport.pinnedExecutor(cacheDir);
  }
}
