package io.looplift.executors.opencl;

import io.looplift.executors.Device;
import io.looplift.executors.ExecutionException;
import io.looplift.executors.ExecutorEnvironment;
import io.looplift.executors.ExecutorProvider;
import io.looplift.tracecache.DiskProgramStore;
import java.util.ArrayList;
import java.util.List;

/** The {@code opencl} executor's provider: every device of every OpenCL platform. */
public final class OpenClExecutorProvider implements ExecutorProvider {
  private volatile DeviceInventory inventory;

  @Override
  public String name() { return OpenClExecutor.NAME; }

  @Override
  public synchronized List<Device> devices(ExecutorEnvironment env) {
    if (inventory == null) inventory = DeviceInventory.discover();
    List<Device> devices = new ArrayList<>();
    for (DeviceInfo d : inventory.devices()) devices.add(new Device(name(), d.index(), d.name(), kind(d), d.toString()));
    return devices;
  }

  @Override
  public String inventoryNote() {
    DeviceInventory i = inventory;
    return i == null ? "not looked for" : i.reason();
  }

  @Override
  public OpenClExecutor open(Device device, ExecutorEnvironment env) throws ExecutionException {
    DeviceInventory i = inventory;
    if (i == null || device.index() >= i.devices().size()) throw new ExecutionException("unknown OpenCL device " + device);
    DiskProgramStore disk = env.cacheDir() != null ? new DiskProgramStore(env.cacheDir()) : DiskProgramStore.atDefaultLocation();
    return new OpenClExecutor(i.devices().get(device.index()), disk, env.version());
  }

  private static Device.Kind kind(DeviceInfo d) {
    return switch (d.kind()) {
      case CPU -> Device.Kind.CPU;
      case GPU -> Device.Kind.GPU;
      case ACCELERATOR -> Device.Kind.ACCELERATOR;
      case OTHER -> Device.Kind.OTHER;
    };
  }
}
