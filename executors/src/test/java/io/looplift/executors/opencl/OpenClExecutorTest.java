package io.looplift.executors.opencl;

import io.looplift.executors.ExecutionException;
import java.nio.file.Path;

/** The executor cases with the device code in this JVM. */
class OpenClExecutorTest extends OpenClExecutorCases {
  @Override
  OpenClExecutor open(Path cacheDir) throws ExecutionException {
    return OpenClTestSupport.executor(cacheDir);
  }
}
