package io.looplift.executors.opencl;

import io.looplift.executors.ExecutionException;
import java.nio.file.Path;

/**
 * The executor cases through the OpenCL host process, opened the way the agent opens it: the provider's
 * devices, {@code opencl.device}'s choice among them, and the provider's executor.
 */
class OpenClExecutorHostTest extends OpenClExecutorCases {
  @Override
  OpenClExecutor open(Path cacheDir) throws ExecutionException {
    return OpenClTestSupport.hostExecutor(cacheDir);
  }
}
