package io.looplift.executors.opencl;

import static org.junit.jupiter.api.Assertions.*;

import io.looplift.executors.Device;
import io.looplift.executors.ExecutionException;
import io.looplift.executors.ExecutionOptions;
import io.looplift.executors.ExecutorEnvironment;
import io.looplift.executors.Launch;
import io.looplift.executors.opencl.host.HostTimeouts;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Type;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The provider starts the host process only where OpenCL can be loaded, and hands it to the executor. */
class OpenClExecutorProviderTest {
  @TempDir Path cacheDir;

  private ExecutorEnvironment env() {
    return new ExecutorEnvironment(ExecutionOptions.EXACT, cacheDir, "test", 1);
  }

  private static Set<Long> children() {
    return ProcessHandle.current().children().map(ProcessHandle::pid).collect(Collectors.toSet());
  }

  @Test
  void withoutAnOpenClLibraryThereIsNoDeviceAndNoProcess() {
    Set<Long> before = children();
    OpenClExecutorProvider provider = new OpenClExecutorProvider(
        () -> new OpenClLibraries.Probe(false, "no OpenCL ICD loader: none here"), HostTimeouts.DEFAULT);
    assertEquals("not looked for", provider.inventoryNote());
    assertEquals(List.of(), provider.devices(env()));
    assertEquals("no OpenCL ICD loader: none here", provider.inventoryNote());
    assertEquals(before, children(), "no process was started");
    Device made = new Device("opencl", 0, "gpu", Device.Kind.GPU, "gpu");
    assertThrows(ExecutionException.class, () -> provider.open(made, env()));
  }

  @Test
  void theHostFindsTheDevicesAndGoesToTheExecutor() throws Exception {
    Set<Long> before = children();
    OpenClExecutorProvider provider = new OpenClExecutorProvider();
    List<Device> devices = provider.devices(env());
    DeviceRequirement.require(!devices.isEmpty(), provider.inventoryNote());
    // Compared without the description: a CPU device's memory is what is free at the moment it is asked.
    assertEquals(OpenClTestSupport.inventory().devices().stream().map(OpenClExecutorProvider::device)
        .map(d -> d.id() + " " + d.name() + " " + d.kind()).toList(),
        devices.stream().map(d -> d.id() + " " + d.name() + " " + d.kind()).toList());
    Set<Long> started = new HashSet<>(children());
    started.removeAll(before);
    assertEquals(1, started.size(), "one host process");
    ProcessHandle host = ProcessHandle.of(started.iterator().next()).orElseThrow();
    assertTrue(host.info().commandLine().orElse("").contains("io.looplift.executors.opencl.host.HostMain"), host.info().toString());

    provider.open(devices.get(0), env()).close();
    host.onExit().get(10, TimeUnit.SECONDS); // closing the executor ends its host

    try (OpenClExecutor again = provider.open(devices.get(0), env())) { // a fresh host for a later executor
      LoopTemplate copy = OpenClTestSupport.map(List.of(Type.INT, Type.INT), List.of(),
          List.of(OpenClTestSupport.store(1, Type.INT, OpenClTestSupport.load(0, Type.INT))));
      int[] out = new int[3];
      again.execute(new Launch(copy, new Object[] {new int[] {4, 5, 6}, out}, new long[0], new long[0], 0, 1, 3), ExecutionOptions.EXACT);
      assertArrayEquals(new int[] {4, 5, 6}, out);
    }
  }
}
