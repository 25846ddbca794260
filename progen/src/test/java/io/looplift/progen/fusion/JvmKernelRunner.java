package io.looplift.progen.fusion;

import io.looplift.ir.LoopTemplate;
import io.looplift.progen.jvm.JvmKernel;
import io.looplift.progen.jvm.JvmKernelGenerator;
import java.lang.invoke.MethodHandles;
import java.util.HashMap;
import java.util.Map;

/** Runs templates as generated JVM kernels (one class per distinct template), in order on one thread. */
final class JvmKernelRunner implements FlushHarness.KernelRunner {
  private static int classes;
  private final Map<LoopTemplate, JvmKernel> kernels = new HashMap<>();

  @Override
  public void run(LoopTemplate t, Object[] arrays, long[] params, long[] accs, int start, int step, int trips) {
    kernels.computeIfAbsent(t, JvmKernelRunner::define).run(arrays, params, accs, start, step, 0, trips);
  }

  private static synchronized JvmKernel define(LoopTemplate t) {
    byte[] bytes = JvmKernelGenerator.generate(t, "io/looplift/progen/fusion/FusedKernel" + ++classes, false);
    try {
      return (JvmKernel) MethodHandles.lookup().defineHiddenClass(bytes, true).lookupClass().getConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }
}
