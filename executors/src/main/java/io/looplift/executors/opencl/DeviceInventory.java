package io.looplift.executors.opencl;

import java.util.List;

/**
 * The OpenCL devices of this machine, in platform order then device order, as the OpenCL host process
 * found them.
 *
 * @param devices every device found, {@link DeviceInfo#index()} equal to its position
 * @param reason one line saying what was found, or why nothing was (no OpenCL library, no platform...)
 */
public record DeviceInventory(List<DeviceInfo> devices, String reason) {
  public DeviceInventory {
    devices = List.copyOf(devices);
  }

  /** An inventory without devices, for {@code reason}. */
  public static DeviceInventory none(String reason) {
    return new DeviceInventory(List.of(), reason);
  }

  /** True when no device was found. */
  public boolean isEmpty() {
    return devices.isEmpty();
  }
}
