package io.looplift.executors.opencl;

import io.looplift.progen.opencl.DeviceFeatures;

/**
 * One OpenCL device as discovered by {@link DeviceInventory}.
 *
 * @param index position in the inventory's device list (the value {@code opencl.device=N} selects)
 * @param platformIndex position of the device's platform in the platform list
 * @param deviceIndex position of the device within its platform
 * @param platform the platform's name
 * @param name the device's name
 * @param vendor the device's vendor
 * @param kind CPU, GPU or other
 * @param computeUnits {@code CL_DEVICE_MAX_COMPUTE_UNITS}
 * @param globalMemory {@code CL_DEVICE_GLOBAL_MEM_SIZE} in bytes
 * @param maxAllocation {@code CL_DEVICE_MAX_MEM_ALLOC_SIZE} in bytes: the largest single buffer
 * @param maxWorkGroupSize {@code CL_DEVICE_MAX_WORK_GROUP_SIZE}
 * @param fp64 the device supports doubles ({@code cl_khr_fp64})
 * @param singleFpConfig {@code CL_DEVICE_SINGLE_FP_CONFIG} bits ({@code CL_FP_DENORM}...)
 * @param doubleFpConfig {@code CL_DEVICE_DOUBLE_FP_CONFIG} bits, 0 without fp64
 * @param openclCVersion {@code CL_DEVICE_OPENCL_C_VERSION}, e.g. "OpenCL C 1.2 PoCL"
 * @param driverVersion {@code CL_DRIVER_VERSION}
 */
public record DeviceInfo(int index, int platformIndex, int deviceIndex, String platform, String name, String vendor,
    Kind kind, int computeUnits, long globalMemory, long maxAllocation, long maxWorkGroupSize, boolean fp64,
    long singleFpConfig, long doubleFpConfig, String openclCVersion, String driverVersion) {

  /** Device types, from {@code CL_DEVICE_TYPE}. */
  public enum Kind { CPU, GPU, ACCELERATOR, OTHER }

  private static final long CL_FP_DENORM = 1L << 0;
  private static final long CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT = 1L << 7;

  /** What code generation needs to know about this device's floating point. */
  public DeviceFeatures features() {
    return new DeviceFeatures(fp64, (singleFpConfig & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0,
        (singleFpConfig & CL_FP_DENORM) != 0, fp64 && (doubleFpConfig & CL_FP_DENORM) != 0);
  }

  @Override
  public String toString() {
    return index + ": " + name + " (" + kind + ", " + vendor + ", " + platform + ", " + computeUnits + " CU, "
        + (globalMemory >> 20) + " MiB, " + openclCVersion + ", driver " + driverVersion + (fp64 ? ", fp64" : "") + ")";
  }
}
