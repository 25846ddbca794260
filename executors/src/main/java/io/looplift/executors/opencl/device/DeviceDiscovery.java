package io.looplift.executors.opencl.device;

import static org.jocl.CL.*;

import io.looplift.executors.opencl.DeviceInfo;
import io.looplift.executors.opencl.DeviceInventory;
import io.looplift.executors.opencl.OneLine;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.jocl.CL;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_device_id;
import org.jocl.cl_platform_id;

/** Finds the OpenCL devices of this machine through JOCL. Loads the driver: runs in the host process. */
public final class DeviceDiscovery {
  private DeviceDiscovery() {}

  /**
   * Lists the devices. Never throws: without an OpenCL library, an ICD loader or any platform, the
   * inventory is empty and its reason says why. Platforms that fail to answer are skipped.
   */
  public static DeviceInventory discover() {
    try {
      CL.setExceptionsEnabled(true);
      cl_platform_id[] platforms = platforms();
      if (platforms.length == 0) return DeviceInventory.none("no OpenCL platform");
      List<DeviceInfo> devices = new ArrayList<>();
      List<String> failures = new ArrayList<>();
      for (int p = 0; p < platforms.length; p++) {
        try {
          String platformName = platformString(platforms[p], CL_PLATFORM_NAME);
          cl_device_id[] ids = deviceIds(platforms[p]);
          for (int d = 0; d < ids.length; d++) devices.add(describe(devices.size(), p, d, platformName, ids[d]));
        } catch (Throwable t) { // a broken platform must not hide the others
          failures.add("platform " + p + ": " + OneLine.of(t));
        }
      }
      String reason = devices.size() + " OpenCL device(s) on " + platforms.length + " platform(s)"
          + (failures.isEmpty() ? "" : "; skipped " + String.join("; ", failures));
      return new DeviceInventory(devices, reason);
    } catch (Throwable t) { // UnsatisfiedLinkError without libOpenCL, CLException without platforms
      return DeviceInventory.none("no OpenCL: " + OneLine.of(t));
    }
  }

  /** The platform and device handles of {@code info}, found again by position and checked by name. */
  static Handles locate(DeviceInfo info) {
    CL.setExceptionsEnabled(true);
    cl_platform_id[] platforms = platforms();
    if (info.platformIndex() >= platforms.length) throw new IllegalStateException("platform gone: " + info);
    cl_device_id[] ids = deviceIds(platforms[info.platformIndex()]);
    if (info.deviceIndex() >= ids.length || !deviceString(ids[info.deviceIndex()], CL_DEVICE_NAME).equals(info.name())) {
      throw new IllegalStateException("device gone: " + info);
    }
    return new Handles(platforms[info.platformIndex()], ids[info.deviceIndex()]);
  }

  /** Native handles of one device. */
  record Handles(cl_platform_id platform, cl_device_id device) {}

  private static cl_platform_id[] platforms() {
    int[] count = new int[1];
    clGetPlatformIDs(0, null, count);
    cl_platform_id[] platforms = new cl_platform_id[count[0]];
    if (platforms.length > 0) clGetPlatformIDs(platforms.length, platforms, null);
    return platforms;
  }

  private static cl_device_id[] deviceIds(cl_platform_id platform) {
    int[] count = new int[1];
    clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, null, count);
    cl_device_id[] ids = new cl_device_id[count[0]];
    if (ids.length > 0) clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, ids.length, ids, null);
    return ids;
  }

  private static DeviceInfo describe(int index, int p, int d, String platform, cl_device_id id) {
    long type = deviceLong(id, CL_DEVICE_TYPE);
    DeviceInfo.Kind kind = (type & CL_DEVICE_TYPE_GPU) != 0 ? DeviceInfo.Kind.GPU
        : (type & CL_DEVICE_TYPE_CPU) != 0 ? DeviceInfo.Kind.CPU
        : (type & CL_DEVICE_TYPE_ACCELERATOR) != 0 ? DeviceInfo.Kind.ACCELERATOR : DeviceInfo.Kind.OTHER;
    String extensions = deviceString(id, CL_DEVICE_EXTENSIONS);
    long doubleConfig;
    try {
      doubleConfig = deviceLong(id, CL_DEVICE_DOUBLE_FP_CONFIG);
    } catch (RuntimeException e) { // devices without doubles may reject the query
      doubleConfig = 0;
    }
    boolean fp64 = extensions.contains("cl_khr_fp64") || doubleConfig != 0;
    return new DeviceInfo(index, p, d, platform, deviceString(id, CL_DEVICE_NAME), deviceString(id, CL_DEVICE_VENDOR), kind,
        deviceInt(id, CL_DEVICE_MAX_COMPUTE_UNITS), deviceLong(id, CL_DEVICE_GLOBAL_MEM_SIZE),
        deviceLong(id, CL_DEVICE_MAX_MEM_ALLOC_SIZE), deviceSize(id, CL_DEVICE_MAX_WORK_GROUP_SIZE), fp64,
        deviceLong(id, CL_DEVICE_SINGLE_FP_CONFIG), doubleConfig, deviceString(id, CL_DEVICE_OPENCL_C_VERSION),
        deviceString(id, CL_DRIVER_VERSION));
  }

  private static String deviceString(cl_device_id id, int param) {
    long[] size = new long[1];
    clGetDeviceInfo(id, param, 0, null, size);
    byte[] bytes = new byte[(int) size[0]];
    clGetDeviceInfo(id, param, bytes.length, Pointer.to(bytes), null);
    return cString(bytes);
  }

  private static String platformString(cl_platform_id id, int param) {
    long[] size = new long[1];
    clGetPlatformInfo(id, param, 0, null, size);
    byte[] bytes = new byte[(int) size[0]];
    clGetPlatformInfo(id, param, bytes.length, Pointer.to(bytes), null);
    return cString(bytes);
  }

  private static String cString(byte[] bytes) {
    int n = 0;
    while (n < bytes.length && bytes[n] != 0) n++;
    return new String(bytes, 0, n, StandardCharsets.UTF_8).trim();
  }

  private static long deviceLong(cl_device_id id, int param) {
    long[] v = new long[1];
    clGetDeviceInfo(id, param, Sizeof.cl_ulong, Pointer.to(v), null);
    return v[0];
  }

  private static int deviceInt(cl_device_id id, int param) {
    int[] v = new int[1];
    clGetDeviceInfo(id, param, Sizeof.cl_uint, Pointer.to(v), null);
    return v[0];
  }

  private static long deviceSize(cl_device_id id, int param) {
    long[] v = new long[1];
    clGetDeviceInfo(id, param, Sizeof.size_t, Pointer.to(v), null);
    return v[0];
  }
}
