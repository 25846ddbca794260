package io.looplift.profiler;

/**
 * A checked launch whose result differed from the reference executor's beyond what the options allow, as
 * the log, the JFR event {@code looplift.VerifyMismatch} and the report show it.
 *
 * @param kernelId the kernel, as in the report's {@code kernels}
 * @param executor the executor whose result differed
 * @param sites the loop sites the kernel computes, where they are in the source
 * @param location the first value that differed: {@code array 1[17]}, {@code array 0[3][17]} (a row of an
 *     array of arrays) or {@code reduction 0}, numbered as the kernel's arguments
 * @param expected the reference executor's value
 * @param actual the executor's value
 */
public record VerifyMismatch(String kernelId, String executor, String sites, String location, String expected,
    String actual) {}
