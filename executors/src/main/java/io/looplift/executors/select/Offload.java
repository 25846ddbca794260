package io.looplift.executors.select;

import io.looplift.executors.Device;
import io.looplift.executors.Executor;

/**
 * An open executor as the selection knows it: the executor and the {@link Candidate} that stands for it.
 *
 * @param executor runs the launches
 * @param candidate its name in the selection and the report ({@code jvm}, {@code opencl:0}, {@code reference})
 *     and what its speed depends on
 */
public record Offload(Executor executor, Candidate candidate) {
  /** {@code executor} standing for the candidate of its own name, for a caller that opened it itself. */
  public static Offload named(Executor executor) {
    return new Offload(executor, new Candidate(executor.name(), executor.name()));
  }

  /** The executor opened on {@code device}, named as the report names it. */
  static Offload on(Executor executor, Device device) {
    String name = device.provider().equals(ExecutorChain.JVM) || device.provider().equals(ExecutorChain.REFERENCE)
        ? device.provider() : device.id();
    return new Offload(executor, new Candidate(name, device.description()));
  }
}
