package io.looplift.runtime;

import io.looplift.progen.fusion.KernelSpec;
import io.looplift.progen.fusion.ProgramSequence;
import java.util.List;
import java.util.StringJoiner;

/**
 * A cached program sequence with what every run of it needs and does not depend on the arrays bound to
 * it: the kernel names for the report and which kernel slots each kernel reads and writes (for the
 * E-scheduler's dependency table). Immutable.
 */
final class CompiledProgram {
  final ProgramSequence sequence;
  final String[] kernelNames;
  final boolean[][] reads;
  final boolean[][] writes;

  private CompiledProgram(ProgramSequence sequence, String[] kernelNames, boolean[][] reads, boolean[][] writes) {
    this.sequence = sequence;
    this.kernelNames = kernelNames;
    this.reads = reads;
    this.writes = writes;
  }

  /** Describes {@code sequence}, compiled from {@code loops}. */
  static CompiledProgram of(ProgramSequence sequence, List<PendingLoop> loops) {
    List<KernelSpec> kernels = sequence.kernels();
    String[] names = new String[kernels.size()];
    boolean[][] reads = new boolean[kernels.size()][];
    boolean[][] writes = new boolean[kernels.size()][];
    for (int k = 0; k < names.length; k++) {
      KernelSpec spec = kernels.get(k);
      names[k] = name(spec, loops);
      reads[k] = spec.template().readArrays();
      writes[k] = spec.template().writtenArrays();
    }
    return new CompiledProgram(sequence, names, reads, writes);
  }

  /** {@code com.acme.Foo.bar:42#7} for one loop, {@code com.acme.Foo.bar:42#7+8+9} for fused loops. */
  private static String name(KernelSpec spec, List<PendingLoop> loops) {
    PendingLoop first = loops.get(spec.loops()[0]);
    StringJoiner ids = new StringJoiner("+", first.entry.where() + "#", "");
    for (int l : spec.loops()) ids.add(String.valueOf(loops.get(l).siteId));
    return ids.toString();
  }
}
