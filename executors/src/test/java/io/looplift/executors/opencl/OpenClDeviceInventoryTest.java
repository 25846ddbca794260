package io.looplift.executors.opencl;

import static org.junit.jupiter.api.Assertions.*;

import io.looplift.executors.Device;
import io.looplift.executors.opencl.device.DeviceDiscovery;
import io.looplift.executors.select.ExecutorChain;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Device discovery: what it finds here, and that it never throws where there is nothing to find. */
class OpenClDeviceInventoryTest {

  @Test
  void describesEveryDevice() {
    DeviceInventory inventory = OpenClTestSupport.discoverHere();
    DeviceRequirement.require(!inventory.isEmpty(), inventory.reason());
    System.out.println(inventory.reason());
    for (int d = 0; d < inventory.devices().size(); d++) {
      DeviceInfo info = inventory.devices().get(d);
      System.out.println(info);
      assertEquals(d, info.index());
      assertFalse(info.name().isEmpty());
      assertTrue(info.computeUnits() > 0);
      assertTrue(info.globalMemory() > 0 && info.maxAllocation() > 0 && info.maxAllocation() <= info.globalMemory());
      assertTrue(info.maxWorkGroupSize() > 0);
      assertTrue(info.openclCVersion().startsWith("OpenCL C"), info.openclCVersion());
      assertFalse(info.driverVersion().isEmpty());
      assertEquals(info.fp64(), info.features().fp64());
    }
    assertThrows(UnsupportedOperationException.class, () -> inventory.devices().clear());
  }

  /** {@code opencl.device} picks among the real devices the way the agent does ({@link ExecutorChain#select}). */
  @Test
  void selectsByIndexNameOrDefault() {
    DeviceInventory inventory = OpenClTestSupport.discoverHere();
    DeviceRequirement.require(!inventory.isEmpty(), inventory.reason());
    List<Device> devices = inventory.devices().stream().map(OpenClExecutorProvider::device).toList();
    Device first = devices.get(0);
    assertEquals(first, ExecutorChain.select(devices, "0").orElseThrow());
    String part = first.name().substring(0, Math.min(6, first.name().length())).toUpperCase(Locale.ROOT);
    assertEquals(first.name(), ExecutorChain.select(devices, part).orElseThrow().name());
    assertTrue(ExecutorChain.select(devices, String.valueOf(devices.size())).isEmpty());
    assertTrue(ExecutorChain.select(devices, "no such device, surely").isEmpty());
    Device chosen = ExecutorChain.select(devices, null).orElseThrow();
    boolean hasGpu = devices.stream().anyMatch(d -> d.kind() == Device.Kind.GPU);
    assertEquals(hasGpu ? Device.Kind.GPU : first.kind(), chosen.kind());
  }

  @Test
  void emptyVendorsDirectoryGivesAnEmptyInventory(@TempDir Path emptyVendors) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), DiscoverMain.class.getName());
    pb.environment().put("OCL_ICD_VENDORS", emptyVendors.toString() + File.separator);
    // Drivers it names are loaded whatever the vendors directory holds (an NVIDIA image may set it).
    pb.environment().remove("OCL_ICD_FILENAMES");
    pb.redirectErrorStream(true);
    Process child = pb.start();
    assertTrue(child.waitFor(60, TimeUnit.SECONDS), "child JVM timed out");
    String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, child.exitValue(), out);
    assertTrue(out.contains("devices=0"), out);
    String reason = out.lines().filter(l -> l.startsWith("reason=")).findFirst().orElseThrow();
    assertFalse(reason.isBlank());
    System.out.println("empty vendors directory: " + reason);
  }

  /** Runs discovery in a child JVM and prints the outcome; exits 1 if discovery threw. */
  public static final class DiscoverMain {
    public static void main(String[] args) {
      try {
        // A JVM of its own: the driver may load here.
        DeviceInventory inventory = DeviceDiscovery.discover();
        System.out.println("devices=" + inventory.devices().size());
        System.out.println("reason=" + inventory.reason());
      } catch (Throwable t) {
        t.printStackTrace(System.out);
        System.exit(1);
      }
    }
  }
}
