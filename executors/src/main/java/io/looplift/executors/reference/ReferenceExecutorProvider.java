package io.looplift.executors.reference;

import io.looplift.executors.Device;
import io.looplift.executors.ExecutorEnvironment;
import io.looplift.executors.ExecutorProvider;
import java.util.List;

/** The {@code reference} executor's provider: the sequential interpreter on the calling thread. */
public final class ReferenceExecutorProvider implements ExecutorProvider {
  @Override
  public String name() { return ReferenceExecutor.NAME; }

  @Override
  public List<Device> devices(ExecutorEnvironment env) {
    return List.of(new Device(name(), 0, "interpreter", Device.Kind.CPU, "the sequential IR interpreter"));
  }

  @Override
  public String inventoryNote() { return "the IR interpreter"; }

  @Override
  public ReferenceExecutor open(Device device, ExecutorEnvironment env) {
    return new ReferenceExecutor();
  }
}
