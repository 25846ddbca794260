package io.looplift.executors.opencl;

import io.looplift.executors.ExecutionException;
import java.nio.file.Path;

/** The flush-session cases through the OpenCL host process, as in the agent. */
class OpenClSessionHostTest extends OpenClSessionCases {
  @Override
  OpenClExecutor open(Path cacheDir) throws ExecutionException {
    return OpenClTestSupport.hostExecutor(cacheDir);
  }
}
