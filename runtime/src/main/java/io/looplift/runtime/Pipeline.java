package io.looplift.runtime;

import io.looplift.ir.SiteRegistry;
import io.looplift.bridge.LoopBridge;
import io.looplift.executors.ExecutionOptions;
import io.looplift.executors.Executor;
import io.looplift.executors.reference.ReferenceExecutor;
import io.looplift.executors.schedule.EScheduler;
import io.looplift.profiler.Profiler;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The run-time pipeline behind the bridge, assembled from its collaborators: the executors in order of
 * preference, the E-scheduler, the profiler, the log and a clock. {@link #sites()} is what the rewriter
 * registers loop sites with; {@link #dispatcher()} is what the bridge calls. Built once per JVM by the
 * agent, and by tests without any agent.
 */
public final class Pipeline {
  private final SiteTable sites;
  private final LoopDispatcher dispatcher;

  private Pipeline(Builder b) {
    this.sites = new SiteTable(b.profiler, b.log);
    b.profiler.verifyMode(b.verify.mode().value(), b.verify.every());
    Verifier verifier = b.verify.mode() == VerifyPolicy.Mode.OFF ? null
        : new Verifier(b.verify, new ReferenceExecutor(), b.options, b.profiler, b.log);
    KernelRunner runner = new KernelRunner(b.executors, b.options, b.profiler, b.log, b.clock, verifier);
    this.dispatcher = new LoopDispatcher(sites, runner, b.scheduler, b.profiler, b.log, b.queueLimit, b.everyLoop);
  }

  /**
   * A builder with the defaults: no executors (set them), exact options, a quiet log, {@link System#nanoTime},
   * verify mode off.
   */
  public static Builder builder() {
    return new Builder();
  }

  /** Where the rewriter registers every loop site it sees. */
  public SiteRegistry sites() {
    return sites;
  }

  /** What the bridge calls: submit, sync and the region entry points. Never throws. */
  public LoopBridge.Dispatcher dispatcher() {
    return dispatcher;
  }

  /** Collects the pipeline's collaborators; each setting is checked at once. Not thread-safe. */
  public static final class Builder {
    private List<Executor> executors = List.of();
    private ExecutionOptions options = ExecutionOptions.EXACT;
    private EScheduler scheduler;
    private Profiler profiler = new Profiler();
    private Log log = new Log(Log.Level.QUIET, line -> {});
    private LongSupplier clock = System::nanoTime;
    private int queueLimit = LoopDispatcher.QUEUE_LIMIT;
    private boolean everyLoop;
    private VerifyPolicy verify = VerifyPolicy.OFF;

    private Builder() {}

    /** The executors in order of preference; a launch runs on the first that supports it and succeeds. */
    public Builder executors(List<Executor> executors) {
      if (executors.isEmpty()) throw new IllegalArgumentException("no executors");
      this.executors = List.copyOf(executors);
      return this;
    }

    public Builder options(ExecutionOptions options) {
      this.options = Objects.requireNonNull(options, "options");
      return this;
    }

    /** Runs compiled programs in dependency order; the pipeline does not close it. */
    public Builder scheduler(EScheduler scheduler) {
      this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
      return this;
    }

    public Builder profiler(Profiler profiler) {
      this.profiler = Objects.requireNonNull(profiler, "profiler");
      return this;
    }

    public Builder log(Log log) {
      this.log = Objects.requireNonNull(log, "log");
      return this;
    }

    /** Nanoseconds, for the times the report attributes to kernels and loops. */
    public Builder clock(LongSupplier clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** The queue length at which a thread's deferred loops run without waiting for a read point. */
    public Builder queueLimit(int queueLimit) {
      if (queueLimit < 1) throw new IllegalArgumentException("queue limit " + queueLimit);
      this.queueLimit = queueLimit;
      return this;
    }

    /**
     * Offload every loop that passes its guards ({@code min.length=0}); otherwise a loop outside a region
     * whose executor expects no gain runs as bytecode.
     */
    public Builder everyLoop(boolean everyLoop) {
      this.everyLoop = everyLoop;
      return this;
    }

    /**
     * Which launches are checked against the reference executor (see {@link VerifyPolicy}); a launch that
     * differs from it beyond what the options allow gets the reference's results, and its kernel moves to the
     * next executor.
     */
    public Builder verify(VerifyPolicy verify) {
      this.verify = Objects.requireNonNull(verify, "verify");
      return this;
    }

    /** @throws IllegalStateException when no executors or no scheduler were set */
    public Pipeline build() {
      if (executors.isEmpty()) throw new IllegalStateException("no executors");
      if (scheduler == null) throw new IllegalStateException("no scheduler");
      return new Pipeline(this);
    }
  }
}
