package io.looplift.executors.select;

/**
 * The candidate to run one launch of a kernel on, from {@link SelectedKernel#choose}. The caller runs it, then
 * reports exactly once: {@link SelectedKernel#record} when it completed, {@link SelectedKernel#failed} when it
 * could not (which also says what to run instead). Immutable.
 */
public final class Choice {
  private final String candidate;
  private final boolean measuring;
  private final boolean recheck;
  private final Source source;
  private final String why;
  private final Size size;
  private final long startNanos;
  private final long untilAsked;
  private final long startCompiling;
  /** The thread that asked for it: the launch's. */
  private final long thread = Thread.currentThread().getId();

  Choice(String candidate, boolean measuring, boolean recheck, Source source, String why, Size size, long startNanos,
      long untilAsked, long startCompiling) {
    this.candidate = candidate;
    this.measuring = measuring || recheck;
    this.recheck = recheck;
    this.source = source;
    this.why = why;
    this.size = size;
    this.startNanos = startNanos;
    this.untilAsked = untilAsked;
    this.startCompiling = startCompiling;
  }

  /** The choice of a decision made without measuring. */
  Choice(Decider.Pick pick, Size size, long startNanos, long untilAsked) {
    this(pick.candidate(), false, false, pick.source(), pick.why(), size, startNanos, untilAsked, 0);
  }

  /** The name of the {@link Candidate} to run: {@link Candidate#BYTECODE}, {@code jvm}, {@code opencl:0}... */
  public String candidate() { return candidate; }

  /** True for {@link Candidate#BYTECODE}: the original loops run, nothing is offloaded. */
  public boolean bytecode() { return Candidate.BYTECODE.equals(candidate); }

  /**
   * True when this launch is one of the measuring runs, whose time decides the kernel's candidate: the caller
   * must time it as it times the others and exclude what a later launch would not pay (an OpenCL build).
   */
  public boolean measuring() { return measuring; }

  /**
   * True for a measuring run of a candidate that lost at its size, run again once the kernel has settled:
   * its first runs may have been timed on code the JIT had not finished with (see {@link SelectedKernel}).
   */
  boolean recheck() { return recheck; }

  /** Where the choice comes from. */
  public Source source() { return source; }

  /** One line saying why this candidate, for the log. */
  public String why() { return why; }

  /**
   * How many launches of the same size, this one included, may run as this choice without asking again: the
   * launch after them is due for a re-check (see {@link SelectedKernel}). A caller that runs launches without
   * asking tells {@link SelectedKernel#choose} how many when it asks again. {@link Long#MAX_VALUE} when nothing
   * is planned; 1 for a measuring run.
   */
  public long untilAsked() { return untilAsked; }

  Size size() { return size; }

  /** When the choice was made, by the selection's clock. */
  long startNanos() { return startNanos; }

  /** For a measuring run, the work beside it so far when the choice was made ({@link Selector#busyElsewhere}). */
  long startCompiling() { return startCompiling; }

  /** The thread whose launch this is. */
  long thread() { return thread; }

  @Override
  public String toString() {
    return candidate + (recheck ? " (re-checking)" : measuring ? " (measuring)" : "") + " [" + source + "] " + why;
  }
}
