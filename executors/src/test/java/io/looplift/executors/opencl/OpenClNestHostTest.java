package io.looplift.executors.opencl;

import io.looplift.executors.ExecutionException;
import java.nio.file.Path;

/** The nest cases through the OpenCL host process, opened the way the agent opens it. */
class OpenClNestHostTest extends OpenClNestCases {
  @Override
  OpenClExecutor open(Path cacheDir) throws ExecutionException {
    return OpenClTestSupport.hostExecutor(cacheDir);
  }
}
