package io.looplift.executors.opencl;

import io.looplift.executors.Device;
import io.looplift.executors.ExecutionException;
import io.looplift.executors.ExecutorEnvironment;
import io.looplift.executors.ExecutorProvider;
import io.looplift.executors.opencl.host.HostLink;
import io.looplift.executors.opencl.host.HostProcess;
import io.looplift.executors.opencl.host.HostTimeouts;
import java.io.IOException;
import java.util.List;
import java.util.function.Supplier;

/**
 * The {@code opencl} executor's provider: every device of every OpenCL platform, reached through the OpenCL
 * host process, so that the program's JVM never loads JOCL or a driver (a driver may replace the signal
 * handlers the JVM relies on, or print to stdout).
 *
 * <p>{@link #devices} first checks, reading files only, that an ICD loader and a vendor file exist
 * ({@link OpenClLibraries}); without them it reports no device and starts nothing. Otherwise it starts the
 * host, which finds the devices; the host waits for {@link #open}, which hands it to the executor. Thread-safe.
 */
public final class OpenClExecutorProvider implements ExecutorProvider {
  private final Supplier<OpenClLibraries.Probe> probe;
  private final HostTimeouts timeouts;
  private DeviceInventory inventory; // guarded by this
  private HostProcess idleHost; // started by devices(), not yet handed to an executor; guarded by this

  /** The provider {@link java.util.ServiceLoader} makes: it checks this machine and uses the default timeouts. */
  public OpenClExecutorProvider() {
    this(OpenClLibraries::probe, HostTimeouts.DEFAULT);
  }

  OpenClExecutorProvider(Supplier<OpenClLibraries.Probe> probe, HostTimeouts timeouts) {
    this.probe = probe;
    this.timeouts = timeouts;
  }

  @Override
  public String name() {
    return OpenClExecutor.NAME;
  }

  @Override
  public synchronized List<Device> devices(ExecutorEnvironment env) {
    if (inventory == null) inventory = discover(env);
    return inventory.devices().stream().map(OpenClExecutorProvider::device).toList();
  }

  /** True when an ICD loader and a vendor file exist (files only: no driver is loaded). */
  @Override
  public boolean present() {
    return probe.get().found();
  }

  @Override
  public synchronized String inventoryNote() {
    return inventory == null ? "not looked for" : inventory.reason();
  }

  /** How the executor SPI shows {@code d}. */
  static Device device(DeviceInfo d) {
    Device.Kind kind = switch (d.kind()) {
      case CPU -> Device.Kind.CPU;
      case GPU -> Device.Kind.GPU;
      case ACCELERATOR -> Device.Kind.ACCELERATOR;
      case OTHER -> Device.Kind.OTHER;
    };
    return new Device(OpenClExecutor.NAME, d.index(), d.name(), kind, d.toString());
  }

  private DeviceInventory discover(ExecutorEnvironment env) {
    OpenClLibraries.Probe found = probe.get();
    if (!found.found()) return DeviceInventory.none(found.description());
    env.log().debug("opencl: " + found.description());
    try {
      HostProcess host = startHost(env);
      DeviceInventory devices = host.hello(env.cacheDir(), env.version());
      if (devices.isEmpty()) host.close();
      else idleHost = host;
      return devices;
    } catch (ExecutionException e) {
      return DeviceInventory.none(e.getMessage());
    }
  }

  private HostProcess startHost(ExecutorEnvironment env) throws ExecutionException {
    try {
      return HostProcess.start(OpenClExecutorProvider.class.getClassLoader(), timeouts, env.log());
    } catch (IOException e) {
      throw new ExecutionException("cannot start the OpenCL host process: " + e.getMessage(), e);
    }
  }

  /** Opens {@code device} in the host that {@link #devices} started, or in a new one when that one is taken. */
  @Override
  public synchronized OpenClExecutor open(Device device, ExecutorEnvironment env) throws ExecutionException {
    if (inventory == null || device.index() >= inventory.devices().size()) throw new ExecutionException("unknown OpenCL device " + device);
    DeviceInfo info = inventory.devices().get(device.index());
    HostProcess host = idleHost;
    idleHost = null;
    try {
      if (host == null) {
        host = startHost(env);
        List<DeviceInfo> now = host.hello(env.cacheDir(), env.version()).devices();
        if (info.index() >= now.size() || !now.get(info.index()).name().equals(info.name())) {
          throw new ExecutionException("OpenCL device " + info.name() + " is gone");
        }
      }
      return new OpenClExecutor(info, new HostLink(host, host.open(info.index())));
    } catch (ExecutionException e) {
      if (host != null) host.close();
      throw e;
    }
  }
}
