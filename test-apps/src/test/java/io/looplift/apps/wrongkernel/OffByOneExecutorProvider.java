package io.looplift.apps.wrongkernel;

import io.looplift.executors.Device;
import io.looplift.executors.Executor;
import io.looplift.executors.ExecutorEnvironment;
import io.looplift.executors.ExecutorProvider;
import java.util.List;

/**
 * A deliberately broken executor, {@code executor=offbyone}, for the end-to-end test of verify mode. It
 * exists only in the test classes: {@code VerifyModeTest} builds a copy of the agent jar with this package
 * and a service-file line added to the nested implementation jar, so the agent finds it the way it finds
 * every executor, and nothing in the shipped agent can be switched into giving wrong results.
 */
public final class OffByOneExecutorProvider implements ExecutorProvider {
  /** The name {@code executor=} takes. */
  public static final String NAME = "offbyone";

  @Override
  public String name() { return NAME; }

  @Override
  public List<Device> devices(ExecutorEnvironment env) {
    return List.of(new Device(NAME, 0, "off by one", Device.Kind.CPU, "wrong on purpose, for tests"));
  }

  @Override
  public String inventoryNote() { return "a test executor"; }

  @Override
  public Executor open(Device device, ExecutorEnvironment env) {
    return new OffByOneExecutor();
  }
}
