/**
 * ProgGen: compiles one flush of a thread's queued loop launches into a short sequence of kernels.
 * {@link io.looplift.progen.fusion.ProgGen#compile} runs three passes: a {@link io.looplift.progen.fusion.BackwardPass}
 * (liveness, dead loops), a {@link io.looplift.progen.fusion.ForwardPass} (program inputs and outputs) and a
 * {@link io.looplift.progen.fusion.SchedulingPass} that fuses consecutive loops into kernels, forwarding
 * stored values to the loads that read them so that temporaries consumed inside a kernel stay in registers.
 * Each kernel is one ordinary {@link io.looplift.ir.LoopTemplate}.
 */
package io.looplift.progen.fusion;
