package io.looplift.executors.select;

import io.looplift.tracecache.DiskProgramStore;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Chooses, per kernel, which candidate runs each launch — the original bytecode, the {@code jvm} executor or an
 * OpenCL device — by measuring them on the kernel's first launches at each size that needs it, and keeps what
 * it measured on disk for later runs of the same program ({@code executor=auto}). With {@link Builder#forced} it
 * measures nothing and takes each kernel's first usable candidate ({@code executor=jvm|opencl|reference}).
 *
 * <p>{@link #kernel} gives the {@link SelectedKernel} that the runtime asks at every launch. Time comes from
 * the clock given to the builder and disk writes run on its writer, so tests drive everything with a fake clock
 * and a direct writer. Thread-safe.
 */
public final class Selector {
  /** What the builder set; see {@link Builder}. */
  record Settings(String version, int cores, int samples, double driftFactor, int driftRuns, int budget,
      long warmUp, String forced) {}

  private final Settings settings;
  private final LongSupplier clock;
  private final LongSupplier compiling;
  private final LongSupplier deviceProcesses;
  private final Decider decider;
  /** Null when nothing is kept on disk. */
  private final SelectionStore store;
  private final Executor writer;
  private final Map<KernelKey, Measurements> kernels = new ConcurrentHashMap<>();
  private final Map<Registration, SelectedKernel> selections = new ConcurrentHashMap<>();
  /** The measurements' version each kernel's record was last written at; guarded by itself. */
  private final Map<KernelKey, Integer> written = new HashMap<>();

  /** One caller's view of a kernel: the same kernel may be chosen for among different candidates. */
  private record Registration(KernelKey key, List<Candidate> candidates) {}

  private Selector(Builder b) {
    this.settings = new Settings(b.version, b.cores, b.samples, b.driftFactor, b.driftRuns, b.budget, b.warmUp,
        b.forced);
    this.clock = b.clock;
    this.compiling = b.compiling;
    this.deviceProcesses = b.deviceProcesses;
    this.decider = new Decider(b.trust);
    this.store = b.directory == null || b.forced != null ? null : new SelectionStore(b.directory, b.warnings);
    this.writer = b.writer;
  }

  /**
   * A builder for a selection in LoopLift {@code version} (part of what makes a stored measurement valid) on
   * a machine with {@code cores} processors (the same).
   */
  public static Builder builder(String version, int cores) {
    return new Builder(version, cores);
  }

  /**
   * Where the measurements of a run with {@code cache.dir} set to {@code cacheDir} (null when it is not set)
   * are kept: the directory {@code selection} inside it.
   */
  public static Path directory(Path cacheDir) {
    return (cacheDir != null ? cacheDir : DiskProgramStore.defaultDirectory()).resolve("selection");
  }

  /**
   * The choice for the kernel {@code key} among {@code candidates}, in the caller's order of preference (which
   * decides ties and forced choices, and runs first before anything is measured). Calls with an equal key and
   * candidate list return the same object; calls with the same key and other candidates share what was
   * measured for each candidate. The first call for a key reads its record from the store.
   *
   * @throws IllegalArgumentException when {@code candidates} is empty or names a candidate twice
   */
  public SelectedKernel kernel(KernelKey key, List<Candidate> candidates) {
    Registration r = new Registration(key, List.copyOf(candidates));
    SelectedKernel known = selections.get(r);
    if (known != null) return known;
    if (candidates.isEmpty()) throw new IllegalArgumentException("no candidates");
    HashSet<String> seen = new HashSet<>();
    for (Candidate c : candidates) {
      if (!seen.add(c.name())) throw new IllegalArgumentException("candidate " + c.name() + " named twice");
    }
    Measurements m = kernels.computeIfAbsent(key, k -> new Measurements(k, settings.budget(), settings.warmUp()));
    synchronized (m) {
      if (!m.loaded()) {
        m.load(store == null ? null : store.load(key, settings.version(), settings.cores()).orElse(null));
      }
      for (Candidate c : candidates) m.register(c);
    }
    SelectedKernel fresh = new SelectedKernel(this, m, r.candidates());
    SelectedKernel raced = selections.putIfAbsent(r, fresh);
    return raced != null ? raced : fresh;
  }

  /**
   * Does on the caller's thread what the first kernel's selection would otherwise do on a program thread: loads
   * the digest that names kernels, opens the store and its key, asks the compilation-time probe once (the
   * platform's management beans load on first use), and links the methods records generate on first use
   * (kernels are looked up by records). Some 50 ms of a 2-core machine, cold.
   */
  public void prepare() {
    ShapeDigest.sha256();
    new Registration(null, List.of()).hashCode();
    if (store != null) store.prepare();
    compiling.getAsLong();
  }

  /** True when a forced choice was set ({@link Builder#forced}): nothing is measured. */
  public boolean forced() {
    return settings.forced() != null;
  }

  Settings settings() { return settings; }

  LongSupplier clock() { return clock; }

  /**
   * The work done so far beside a run of {@code candidate}, in nanoseconds of processor time, for
   * {@link SelectedKernel#DISTURBED}: the JIT's, and, for a candidate that is no device, the device processes'
   * (a device's own process works for its runs).
   */
  long busyElsewhere(String candidate) {
    long jit = compiling.getAsLong();
    return Candidate.isDevice(candidate) ? jit : jit + deviceProcesses.getAsLong();
  }

  Decider decider() { return decider; }

  /**
   * Writes {@code m}'s record on the writer; the caller holds {@code m}'s monitor. Of two snapshots written out
   * of order, the older one is skipped.
   */
  void persist(Measurements m) {
    if (store == null) return;
    int version = m.version();
    StoredKernel snapshot = m.snapshot(settings.version(), settings.cores());
    writer.execute(() -> {
      synchronized (written) {
        Integer done = written.get(m.key());
        if (done != null && done >= version) return;
        store.save(snapshot);
        written.put(m.key(), version);
      }
    });
  }

  /** Settings of a {@link Selector}; each is checked when set. */
  public static final class Builder {
    private final String version;
    private final int cores;
    private LongSupplier clock = System::nanoTime;
    private LongSupplier compiling = () -> 0;
    private LongSupplier deviceProcesses = () -> 0;
    private Path directory;
    private Consumer<String> warnings = line -> System.err.println("looplift: " + line);
    private Executor writer = Runnable::run;
    private String forced;
    private int samples = 3;
    private double trust = 1.5;
    private double driftFactor = 2;
    private int driftRuns = 5;
    private int budget = 64;
    private long warmUp = Measurements.WARM_ITERATIONS;

    private Builder(String version, int cores) {
      if (version == null || version.isEmpty()) throw new IllegalArgumentException("no version");
      if (cores < 1) throw new IllegalArgumentException("cores " + cores);
      this.version = version;
      this.cores = cores;
    }

    /** Nanoseconds, for {@link SelectedKernel#record(Choice)}; {@code System::nanoTime} unless set. */
    public Builder clock(LongSupplier clock) {
      this.clock = clock;
      return this;
    }

    /**
     * The JIT compiler's work so far, in nanoseconds of compilation (all compiler threads together), for
     * {@link SelectedKernel#DISTURBED}; nothing counts as disturbed unless set.
     */
    public Builder compiling(LongSupplier compiling) {
      this.compiling = compiling;
      return this;
    }

    /**
     * The processor time so far of the processes the devices run in (the OpenCL host), in nanoseconds: beside
     * a run of another candidate it is disturbance as the JIT's work is (a device opening or compiling its
     * programs in the background); nothing of it counts unless set.
     */
    public Builder deviceProcesses(LongSupplier deviceProcesses) {
      this.deviceProcesses = deviceProcesses;
      return this;
    }

    /**
     * Keeps measurements in {@code directory} (see {@link #directory(Path)}) between runs; without this,
     * nothing is kept. The directory is used as {@code cache.dir} is: only when nobody else can write it.
     *
     * @param warnings receives the one line saying why the directory is refused, if it is
     */
    public Builder store(Path directory, Consumer<String> warnings) {
      this.directory = directory;
      this.warnings = warnings;
      return this;
    }

    /** Runs the disk writes; on the thread that completed a measurement unless set. */
    public Builder writer(Executor writer) {
      this.writer = writer;
      return this;
    }

    /**
     * Measures nothing: every kernel runs on its first usable candidate, in the caller's order, and nothing is
     * read from or written to the store.
     *
     * @param option what forced it, for the log (e.g. {@code executor=opencl})
     */
    public Builder forced(String option) {
      this.forced = option;
      return this;
    }

    /** How many measuring runs each candidate gets at a size class (the fastest counts); 3 unless set. */
    public Builder samples(int samples) {
      if (samples < 1) throw new IllegalArgumentException("samples " + samples);
      this.samples = samples;
      return this;
    }

    /**
     * How many times slower than the fastest the runner-up must be estimated, at a size between measured ones,
     * for the estimate to be trusted instead of measuring that size; 1.5 unless set.
     */
    public Builder trust(double trust) {
      if (!(trust > 1)) throw new IllegalArgumentException("trust " + trust);
      this.trust = trust;
      return this;
    }

    /**
     * When a size class is measured again: after {@code runs} launches in a row there that took more than
     * {@code factor} times the chosen candidate's estimate; 2 and 5 unless set.
     */
    public Builder drift(double factor, int runs) {
      if (!(factor > 1) || runs < 1) throw new IllegalArgumentException("drift " + factor + " for " + runs + " runs");
      this.driftFactor = factor;
      this.driftRuns = runs;
      return this;
    }

    /** The most measuring runs a kernel gets in one JVM run, re-measurements included; 64 unless set. */
    public Builder budget(int runs) {
      if (runs < 0) throw new IllegalArgumentException("budget " + runs);
      this.budget = runs;
      return this;
    }

    /**
     * How many iterations of a kernel's outermost loop the original bytecode runs before its runs are timed
     * (see {@link Measurements#WARM_ITERATIONS}, the default); 0 times it from its first run.
     */
    public Builder warmUp(long iterations) {
      if (iterations < 0) throw new IllegalArgumentException("warm-up " + iterations);
      this.warmUp = iterations;
      return this;
    }

    public Selector build() {
      return new Selector(this);
    }
  }
}
