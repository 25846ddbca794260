package io.looplift.runtime;

import io.looplift.ir.SiteRegistry;
import io.looplift.bridge.LoopBridge;
import io.looplift.executors.ExecutionOptions;
import io.looplift.executors.Executor;
import io.looplift.executors.schedule.EScheduler;
import io.looplift.executors.select.Candidate;
import io.looplift.executors.select.LateDevices;
import io.looplift.executors.select.Offload;
import io.looplift.executors.select.Selector;
import io.looplift.profiler.Profiler;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The run-time pipeline behind the bridge, assembled from its collaborators: the executors and how one is
 * chosen for each launch (the {@link Selector}), the E-scheduler, the profiler, the log and a clock.
 * {@link #sites()} is what the rewriter registers loop sites with; {@link #dispatcher()} is what the bridge
 * calls. Built once per JVM by the agent, and by tests without any agent.
 */
public final class Pipeline {
  private final SiteTable sites;
  private final LoopDispatcher dispatcher;

  private Pipeline(Builder b) {
    this.sites = new SiteTable(b.profiler, b.log);
    Selector selector = b.selector != null ? b.selector
        : Selector.builder("pipeline", Runtime.getRuntime().availableProcessors()).forced("the executors given").build();
    Selections selections = new Selections(selector, b.offloads, b.later, b.bytecode, b.options, b.profiler);
    KernelRunner runner = new KernelRunner(selections, b.options, b.profiler, b.log, b.clock);
    this.dispatcher = new LoopDispatcher(sites, runner, selections, b.scheduler, b.profiler, b.log, b.queueLimit,
        b.clock);
  }

  /**
   * A builder with the defaults: no executors (set them), exact options, a quiet log, {@link System#nanoTime},
   * and without a selector every launch on the first executor that supports it.
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
    private List<Offload> offloads = List.of();
    private LateDevices later = LateDevices.none();
    private Selector selector;
    private boolean bytecode;
    private ExecutionOptions options = ExecutionOptions.EXACT;
    private EScheduler scheduler;
    private Profiler profiler = new Profiler();
    private Log log = new Log(Log.Level.QUIET, line -> {});
    private LongSupplier clock = System::nanoTime;
    private int queueLimit = LoopDispatcher.QUEUE_LIMIT;

    private Builder() {}

    /**
     * The executors opened up front, in order of preference, the reference executor last. Without a measuring
     * {@link #selector}, a launch runs on the first that supports it and succeeds.
     */
    public Builder offloads(List<Offload> offloads) {
      if (offloads.isEmpty()) throw new IllegalArgumentException("no executors");
      this.offloads = List.copyOf(offloads);
      return this;
    }

    /** {@link #offloads}, each executor standing for the candidate of its own name. */
    public Builder executors(List<Executor> executors) {
      List<Offload> named = new ArrayList<>();
      for (Executor x : executors) named.add(new Offload(x, new Candidate(x.name(), x.name())));
      return offloads(named);
    }

    /** The device executors a measuring selector may add once they open; none unless set. */
    public Builder lateDevices(LateDevices later) {
      this.later = Objects.requireNonNull(later, "later");
      return this;
    }

    /** Chooses what runs each launch; a forced one measures nothing. */
    public Builder selector(Selector selector) {
      this.selector = Objects.requireNonNull(selector, "selector");
      return this;
    }

    /**
     * Makes the original bytecode a candidate of every loop outside a region, so that a loop the executors do
     * not speed up stays on the program thread; ignored with a forced selector.
     */
    public Builder bytecodeCandidate(boolean bytecode) {
      this.bytecode = bytecode;
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

    /** Nanoseconds, for the times the report attributes to kernels and loops and the original loops timed. */
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

    /** @throws IllegalStateException when no executors or no scheduler were set */
    public Pipeline build() {
      if (offloads.isEmpty()) throw new IllegalStateException("no executors");
      if (scheduler == null) throw new IllegalStateException("no scheduler");
      return new Pipeline(this);
    }
  }
}
