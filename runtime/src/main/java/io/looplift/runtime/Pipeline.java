package io.looplift.runtime;

import io.looplift.ir.SiteRegistry;
import io.looplift.bridge.LoopBridge;
import io.looplift.executors.ExecutionOptions;
import io.looplift.executors.Executor;
import io.looplift.executors.schedule.EScheduler;
import io.looplift.profiler.Profiler;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The run-time pipeline behind the bridge, assembled from its collaborators: the executors in order of
 * preference, the E-scheduler, the profiler, the log and a clock. {@link #sites()} is what the rewriter
 * registers loop sites with; {@link #dispatcher()} is what the bridge calls. Built once per JVM by the
 * agent, and by tests without any agent. The executors and the scheduler may be opened when the first loop
 * is offered ({@link Builder#openLater}), so that a program that runs no rewritten loop never pays for them.
 */
public final class Pipeline {
  private final SiteTable sites;
  private final LoopBridge.Dispatcher dispatcher;

  private Pipeline(Builder b) {
    this.sites = new SiteTable(b.profiler, b.log);
    if (b.opener == null) {
      this.dispatcher = dispatcher(b, b.executors, b.scheduler);
    } else {
      Supplier<Backend> opener = b.opener;
      this.dispatcher = new OpeningDispatcher(() -> {
        Backend backend = opener.get();
        return dispatcher(b, backend.executors(), backend.scheduler());
      }, b.log);
    }
  }

  private LoopDispatcher dispatcher(Builder b, List<Executor> executors, EScheduler scheduler) {
    KernelRunner runner = new KernelRunner(executors, b.options, b.profiler, b.log, b.clock);
    return new LoopDispatcher(sites, runner, scheduler, b.profiler, b.log, b.queueLimit, b.everyLoop);
  }

  /**
   * What {@link Builder#openLater} opens: the executors in order of preference (at least one) and the
   * scheduler.
   */
  public record Backend(List<Executor> executors, EScheduler scheduler) {
    /** @throws IllegalArgumentException when there are no executors */
    public Backend {
      executors = List.copyOf(executors);
      if (executors.isEmpty()) throw new IllegalArgumentException("no executors");
      Objects.requireNonNull(scheduler, "scheduler");
    }
  }

  /** A builder with the defaults: no executors (set them), exact options, a quiet log, {@link System#nanoTime}. */
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
    private Supplier<Backend> opener;

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
     * Opens the executors and the scheduler with {@code opener} when the first loop is offered instead of
     * taking them now: {@code opener} runs once, on the thread that needs
     * them; if it throws, every loop runs as bytecode. Replaces {@link #executors} and {@link #scheduler}.
     */
    public Builder openLater(Supplier<Backend> opener) {
      this.opener = Objects.requireNonNull(opener, "opener");
      return this;
    }

    /** @throws IllegalStateException when neither an opener nor the executors and a scheduler were set */
    public Pipeline build() {
      if (opener == null && executors.isEmpty()) throw new IllegalStateException("no executors");
      if (opener == null && scheduler == null) throw new IllegalStateException("no scheduler");
      return new Pipeline(this);
    }
  }
}
