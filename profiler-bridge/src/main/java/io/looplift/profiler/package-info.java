/**
 * LoopLift's profiler: call-site (PC) and kernel (CK) records and everything that shows them to a user.
 *
 * <p>{@link io.looplift.profiler.Profiler} is the one entry point. The pipeline reports loop sites as the
 * analyzer finds them, and offloaded runs, fallbacks, kernel launches and verify mode's checks as they
 * happen; the profiler turns that into the JSON report of DESIGN.md
 * ({@link io.looplift.profiler.Profiler#reportJson()}), a human summary, JFR events ({@code looplift.Kernel},
 * {@code looplift.Offload}, {@code looplift.Fallback}, {@code looplift.TraceCacheMiss},
 * {@code looplift.VerifyMismatch}, category "LoopLift") and the MBean {@code io.looplift:type=LoopLift}
 * ({@link io.looplift.profiler.LoopLiftMBean}). Everything else in the package is package-private.
 */
package io.looplift.profiler;
