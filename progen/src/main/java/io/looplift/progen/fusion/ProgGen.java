package io.looplift.progen.fusion;

import java.util.List;
import java.util.stream.IntStream;

/**
 * Compiles one flush of a thread's work queue into a {@link ProgramSequence}: the {@link BackwardPass}
 * finds dead loops, the {@link ForwardPass} program inputs and outputs, and the scheduling pass fuses the
 * live loops into kernels. Stateless.
 */
public final class ProgGen {
  private ProgGen() {}

  /**
   * The program for {@code flush}.
   *
   * @param reassociate whether floating-point sums and products may be split into partials, which decides
   *     which loops count as parallel
   */
  public static ProgramSequence compile(Flush flush, boolean reassociate) {
    List<LoopLiveness> liveness = BackwardPass.run(flush);
    List<LoopIo> io = ForwardPass.run(flush, liveness);
    List<KernelGroup> kernels = SchedulingPass.run(flush, liveness, io, reassociate);
    int[] eliminated = IntStream.range(0, liveness.size()).filter(l -> liveness.get(l).dead()).toArray();
    return KernelAssembler.assemble(flush, kernels, eliminated);
  }
}
