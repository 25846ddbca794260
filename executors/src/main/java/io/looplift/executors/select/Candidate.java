package io.looplift.executors.select;

/**
 * One way to run a kernel that the selection can choose: {@link #BYTECODE} (the original loops, not
 * offloaded), {@code jvm}, or a device such as {@code opencl:0} (a {@link io.looplift.executors.Device#id()}).
 *
 * @param name how the report and the caller name it; unique among a kernel's candidates
 * @param device what its speed depends on besides the kernel, for invalidating what was measured: the device
 *     and its driver's version for an OpenCL device, the thread count and JVM for the others. A candidate whose
 *     description differs from the one its measurements were stored with is measured again.
 */
public record Candidate(String name, String device) {
  /**
   * The original loops run as they are, in the program thread. The caller times them around that run, as it
   * times any other candidate: an estimate (say, the generated kernel run on one thread) would miss what makes
   * the original loop fast or slow, such as C2 vectorizing it, which is exactly what decides short loops.
   */
  public static final String BYTECODE = "bytecode";

  /** Whether the candidate named {@code name} is a device: its name is a {@link io.looplift.executors.Device#id()}. */
  static boolean isDevice(String name) {
    return name.indexOf(':') >= 0;
  }

  public Candidate {
    if (name == null || name.isEmpty()) throw new IllegalArgumentException("a candidate needs a name");
    if (device == null) throw new IllegalArgumentException("candidate " + name + " has no device description");
  }
}
