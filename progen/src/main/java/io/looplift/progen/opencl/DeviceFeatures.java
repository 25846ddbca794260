package io.looplift.progen.opencl;

/**
 * What a device's floating-point units guarantee, as far as Java-exact code generation cares.
 *
 * @param fp64 the device supports doubles ({@code cl_khr_fp64})
 * @param fp32CorrectlyRoundedDivideSqrt {@code CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT} in the single-precision
 *     config: float division and square root can be built correctly rounded, as Java's are
 * @param fp32Denormals {@code CL_FP_DENORM} in the single-precision config (otherwise subnormal floats
 *     flush to zero, which Java never does)
 * @param fp64Denormals {@code CL_FP_DENORM} in the double-precision config
 */
public record DeviceFeatures(boolean fp64, boolean fp32CorrectlyRoundedDivideSqrt, boolean fp32Denormals,
    boolean fp64Denormals) {

  /** A device that runs every kernel this package can generate. */
  public static final DeviceFeatures FULL = new DeviceFeatures(true, true, true, true);
}
