package io.looplift.runtime;

import io.looplift.bridge.LoopBridge;
import io.looplift.executors.ExecutionOptions;
import io.looplift.executors.Executor;
import io.looplift.executors.reference.ReferenceExecutor;
import io.looplift.executors.schedule.EScheduler;
import io.looplift.executors.select.LateDevices;
import io.looplift.executors.select.Offload;
import io.looplift.executors.select.Selector;
import io.looplift.ir.SiteRegistry;
import io.looplift.profiler.Profiler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The run-time pipeline behind the bridge, assembled from its collaborators: the executors and how one is
 * chosen for each launch (the {@link Selector}), the E-scheduler, the profiler, the log and a clock.
 * {@link #sites()} is what the rewriter registers loop sites with; {@link #dispatcher()} is what the bridge
 * calls. Built once per JVM by the agent, and by tests without any agent. The executors and the scheduler may
 * be opened when the first loop is offered ({@link Builder#openLater}), so that a program that runs no
 * rewritten loop never pays for them.
 */
public final class Pipeline {
  private final SiteTable sites;
  private final LoopBridge.Dispatcher dispatcher;

  private Pipeline(Builder b) {
    this.sites = new SiteTable(b.profiler, b.log);
    b.profiler.verifyMode(b.verify.mode().value(), b.verify.every());
    ShortLoops shortLoops = new ShortLoops(sites, b.profiler, b.rewriting, LoopBridge::switchOff, b.log);
    if (b.opener == null) {
      this.dispatcher = dispatcher(b, new Backend(b.offloads, b.later, b.scheduler), shortLoops);
    } else {
      Supplier<Backend> opener = b.opener;
      this.dispatcher = new OpeningDispatcher(() -> dispatcher(b, opener.get(), shortLoops), b.initialized,
          shortLoops, b.profiler, b.log, b.bytecode, b.openAfterNanos, b.clock);
    }
  }

  private LoopDispatcher dispatcher(Builder b, Backend backend, ShortLoops shortLoops) {
    Selector selector = b.selector != null ? b.selector
        : Selector.builder("pipeline", Runtime.getRuntime().availableProcessors()).forced("the executors given").build();
    Selections selections = new Selections(selector, backend.offloads(), backend.later(), b.bytecode, b.options,
        b.profiler);
    Verifier verifier = b.verify.mode() == VerifyPolicy.Mode.OFF ? null
        : new Verifier(b.verify, new ReferenceExecutor(), b.options, b.profiler, b.log);
    KernelRunner runner = new KernelRunner(selections, b.options, b.profiler, b.log, b.clock, verifier);
    return new LoopDispatcher(sites, runner, selections, backend.scheduler(), b.profiler, b.log, b.queueLimit,
        b.clock, b.threadCpu, new SiteRests(), b.initialized, shortLoops);
  }

  /**
   * What {@link Builder#openLater} opens: the executors opened up front in order of preference (at least one),
   * the device executors a measuring selector may add later, and the scheduler.
   */
  public record Backend(List<Offload> offloads, LateDevices later, EScheduler scheduler) {
    /** @throws IllegalArgumentException when there are no executors */
    public Backend {
      offloads = List.copyOf(offloads);
      if (offloads.isEmpty()) throw new IllegalArgumentException("no executors");
      Objects.requireNonNull(later, "later");
      Objects.requireNonNull(scheduler, "scheduler");
    }
  }

  /**
   * A builder with the defaults: no executors (set them), exact options, a quiet log, {@link System#nanoTime},
   * verify mode off, and without a selector every launch on the first executor that supports it.
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
    private LongSupplier threadCpu = () -> -1;
    private int queueLimit = LoopDispatcher.QUEUE_LIMIT;
    private Supplier<Backend> opener;
    private long openAfterNanos = OpeningDispatcher.OPENING_COST_NANOS;
    private VerifyPolicy verify = VerifyPolicy.OFF;
    private Predicate<Class<?>> initialized = c -> false;
    private ClassRewriting rewriting = ClassRewriting.NONE;

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
      for (Executor x : executors) named.add(Offload.named(x));
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

    /**
     * The calling thread's processor time in nanoseconds, negative where unknown (unless set): a measuring run
     * of an original loop counts it when it is shorter than the {@link #clock}'s time, what other threads took.
     */
    public Builder threadCpu(LongSupplier threadCpu) {
      this.threadCpu = Objects.requireNonNull(threadCpu, "threadCpu");
      return this;
    }

    /** The queue length at which a thread's deferred loops run without waiting for a read point. */
    public Builder queueLimit(int queueLimit) {
      if (queueLimit < 1) throw new IllegalArgumentException("queue limit " + queueLimit);
      this.queueLimit = queueLimit;
      return this;
    }

    /**
     * Opens the executors and the scheduler with {@code opener} when the first loop is offered instead of
     * taking them now: {@code opener} runs once, on the thread that needs them (with {@link #bytecodeCandidate},
     * on a background thread once the loops offered have run {@link #openAfter} as bytecode, while those offered
     * meanwhile still do); if it throws, every loop runs as bytecode. Replaces {@link #offloads}, {@link #lateDevices} and {@link #scheduler}.
     */
    public Builder openLater(Supplier<Backend> opener) {
      this.opener = Objects.requireNonNull(opener, "opener");
      return this;
    }

    /**
     * With {@link #openLater} and {@link #bytecodeCandidate}, how long (by the {@link #clock}) the loops offered
     * run as bytecode, timed, before the executors start opening: about what opening them costs, 150 ms, unless
     * set; 0 opens them when the first loop is offered.
     */
    public Builder openAfter(Duration bytecodeTime) {
      if (bytecodeTime.isNegative()) throw new IllegalArgumentException("negative time " + bytecodeTime);
      this.openAfterNanos = bytecodeTime.toNanos();
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

    /**
     * Tells whether a class is initialized without initializing it. A loop that inlines a static method of a
     * class with a static initializer is offloaded only once that class is initialized; without this, never.
     */
    public Builder classInitialized(Predicate<Class<?>> initialized) {
      this.initialized = Objects.requireNonNull(initialized, "initialized");
      return this;
    }

    /**
     * Rewrites a class again once the rewriter is to leave one of its loops as it was: a loop that only ever
     * runs too short to offload. Without this, such a loop keeps its rewrite.
     */
    public Builder classRewriting(ClassRewriting rewriting) {
      this.rewriting = Objects.requireNonNull(rewriting, "rewriting");
      return this;
    }

    /** @throws IllegalStateException when neither an opener nor the executors and a scheduler were set */
    public Pipeline build() {
      if (opener == null && offloads.isEmpty()) throw new IllegalStateException("no executors");
      if (opener == null && scheduler == null) throw new IllegalStateException("no scheduler");
      return new Pipeline(this);
    }
  }
}
