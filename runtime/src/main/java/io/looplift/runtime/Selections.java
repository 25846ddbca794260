package io.looplift.runtime;

import io.looplift.executors.ExecutionOptions;
import io.looplift.executors.Executor;
import io.looplift.executors.Launch;
import io.looplift.executors.LaunchWork;
import io.looplift.executors.reference.ReferenceExecutor;
import io.looplift.executors.select.Candidate;
import io.looplift.executors.select.Choice;
import io.looplift.executors.select.KernelKey;
import io.looplift.executors.select.LateDevices;
import io.looplift.executors.select.Offload;
import io.looplift.executors.select.SelectedKernel;
import io.looplift.executors.select.SelectionReport;
import io.looplift.executors.select.Selector;
import io.looplift.ir.LoopSite;
import io.looplift.ir.LoopTemplate;
import io.looplift.profiler.Profiler;
import io.looplift.profiler.SelectionInfo;
import io.looplift.tracecache.BoundedCache;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * What runs each launch. A loop site's candidates are the executors that support its loop and, where the
 * program thread may keep it, the original bytecode; a kernel fused from several loops has only the
 * executors, since its loops have left the program thread already. The {@link Selector} chooses among them
 * (by measurement with {@code executor=auto}, the forced executor otherwise); this class names the
 * candidates, keeps each site's and fused kernel's {@link SelectedKernel}, and finds the executor a choice
 * stands for. With {@code auto} the device executors are candidates of a kernel once it has done
 * {@link #DEVICE_WORK}: they are opened then, in the background ({@link LateDevices}), and the kernel's
 * selection is made again with them. Thread-safe.
 */
final class Selections {
  /**
   * The candidate chosen for one launch and the selection its outcome is reported to.
   *
   * @param launchesBeforeAsking after how many more launches like this one the selection must be asked again:
   *     device executors become candidates of the kernel, or a re-check is due ({@link Long#MAX_VALUE} for
   *     neither)
   * @param devices the device executors that were open when the choice was made (see {@link #devices()})
   */
  record Decision(SelectedKernel selection, Choice choice, long launchesBeforeAsking, List<Offload> devices,
      boolean devicesOpening) {}

  private static final int KERNELS = 1024;
  /**
   * The work (iterations times work per iteration, about a nanosecond each on one core) a kernel's launches
   * must have done before a device is asked for and measured on it: building a device program costs about as
   * much (PoCL: 0.3 to 1 s), which a kernel that runs less could never repay.
   */
  static final long DEVICE_WORK = 1L << 28;

  private final Selector selector;
  private final List<Offload> opened;
  private final LateDevices later;
  private final boolean forced;
  private final boolean bytecode;
  private final ExecutionOptions options;
  private final Profiler profiler;
  private final Map<Integer, Kernel> sites = new ConcurrentHashMap<>();
  private final BoundedCache<LoopTemplate, Kernel> kernels = new BoundedCache<>(KERNELS);

  /**
   * @param selector measures, or with a forced choice runs every launch on the first usable of {@code opened}
   * @param opened the executors opened up front, in order of preference, the reference executor last
   * @param later the device executors that open when first asked for ({@code auto} only)
   * @param bytecode the original bytecode is a candidate of every site outside a region ({@code auto} without
   *     {@code min.length})
   * @param profiler told of each selection a site gets, for the report
   */
  Selections(Selector selector, List<Offload> opened, LateDevices later, boolean bytecode, ExecutionOptions options,
      Profiler profiler) {
    this.selector = selector;
    this.opened = List.copyOf(opened);
    this.later = later;
    this.forced = selector.forced();
    this.bytecode = bytecode && !forced;
    this.options = options;
    this.profiler = profiler;
  }

  /** What the report shows of {@code selection}. */
  static SelectionInfo info(SelectedKernel selection) {
    SelectionReport r = selection.report();
    return new SelectionInfo(r.executor(), r.source() == null ? null : r.source().toString(), r.candidates(),
        r.transfers(), r.measuringRuns(), r.measuringNanos(), r.summary());
  }

  /** The executor {@code choice} stands for; null for the bytecode or an executor no longer known. */
  Executor executor(Choice choice) {
    for (Offload o : open()) {
      if (o.candidate().name().equals(choice.candidate())) return o.executor();
    }
    return null;
  }

  /**
   * The choice for {@code launch} of site {@code entry}; empty when every candidate failed on it.
   *
   * @param declined launches like this one the caller declined without asking, since it last asked: their work
   *     counts as done
   */
  Optional<Decision> site(SiteTable.Entry entry, Launch launch, int declined) {
    Kernel k = sites.computeIfAbsent(entry.id(), id -> new Kernel(entry.site().template(),
        key(entry.site().template(), List.of(entry.site())), bytecode,
        selection -> profiler.siteSelection(id, () -> info(selection))));
    return k.choose(launch, declined);
  }

  /** The choice for {@code launch} of a kernel fused from {@code loops}; empty when no executor can run it. */
  Optional<Decision> kernel(Launch launch, List<PendingLoop> loops) {
    Kernel k = kernels.get(launch.template(), t -> {
      List<LoopSite> sites = new ArrayList<>();
      for (PendingLoop l : loops) sites.add(l.entry.site());
      return new Kernel(t, key(t, sites), false, selection -> {});
    });
    return k.choose(launch, 0);
  }

  /**
   * The executors a kernel chooses among: those opened up front, and with {@code devices} the device executors
   * opened so far (the first such call starts opening them).
   */
  private List<Offload> offloads(boolean devices) {
    return devices && !forced ? with(later.poll()) : opened;
  }

  /**
   * The device executors opened so far: a new list, compared by identity, each time one more opens. Reading it
   * opens nothing.
   */
  List<Offload> devices() {
    return later.opened();
  }

  /** Every executor open now, in order of preference: those opened up front, then the devices opened since. */
  List<Offload> open() {
    return with(later.opened());
  }

  private List<Offload> with(List<Offload> late) {
    if (late.isEmpty()) return opened;
    List<Offload> all = new ArrayList<>(opened);
    // Devices go before the reference executor, which runs anything but is never a candidate of auto.
    all.addAll(all.size() - 1, late);
    return all;
  }

  /**
   * One kernel's selection, made again among more candidates when devices join (once the kernel has done
   * {@link #DEVICE_WORK}, unless an earlier run measured them on it and they lost at every size it measured),
   * and the work its launches have done.
   */
  private final class Kernel {
    private final LoopTemplate template;
    private final KernelKey key;
    private final boolean withBytecode;
    private final Consumer<SelectedKernel> selected;
    private final LaunchWork work;
    private final AtomicLong workDone = new AtomicLong();
    private SelectedKernel selection; // guarded by this
    private int executors = -1; // guarded by this; how many executors the selection was made among
    private volatile boolean devicesLost;

    Kernel(LoopTemplate template, KernelKey key, boolean withBytecode, Consumer<SelectedKernel> selected) {
      this.template = template;
      this.key = key;
      this.withBytecode = withBytecode;
      this.selected = selected;
      this.work = LaunchWork.of(template);
    }

    Optional<Decision> choose(Launch launch, int declined) {
      List<Offload> devices = later.opened();
      long trips = Math.max(1, launch.trips());
      long perIteration = Math.max(1, template.isFlat() ? work.perIteration() : work.launch(launch) / trips);
      long launchWork = perIteration > Long.MAX_VALUE / trips ? Long.MAX_VALUE : perIteration * trips;
      long worked = launchWork > Long.MAX_VALUE / (declined + 1L) ? Long.MAX_VALUE : launchWork * (declined + 1L);
      long done = workDone.accumulateAndGet(worked, (a, b) -> a > Long.MAX_VALUE - b ? Long.MAX_VALUE : a + b);
      boolean devicesMayJoin = !forced && later.present() && !devicesLost && done < DEVICE_WORK;
      long beforeDevices = devicesMayJoin ? (DEVICE_WORK - done + launchWork - 1) / launchWork : Long.MAX_VALUE;
      List<Offload> now = offloads(done >= DEVICE_WORK && !devicesLost);
      SelectedKernel s;
      synchronized (this) {
        if (executors != now.size()) {
          List<Candidate> candidates = candidates(template, now, withBytecode);
          boolean first = executors < 0;
          selection = candidates.isEmpty() ? null : selector.kernel(key, candidates);
          executors = now.size();
          if (selection != null) {
            selected.accept(selection);
            // An earlier run measured the devices on this kernel and they lost: opening them is all cost.
            if (first) devicesLost = selection.othersLostBefore();
          }
        }
        s = selection;
      }
      if (s == null) return Optional.empty();
      return s.choose(launch.trips(), perIteration, declined)
          .map(c -> new Decision(s, c, Math.min(beforeDevices, c.untilAsked()), devices,
              !forced && !devicesLost && later.opening()));
    }
  }

  /**
   * The candidates for {@code t}: the bytecode first when {@code withBytecode} (so that it runs before anything is
   * measured), then the executors that support {@code t} in order of preference; the reference executor only
   * when forced, as it only stands in for the others.
   */
  private List<Candidate> candidates(LoopTemplate t, List<Offload> offloads, boolean withBytecode) {
    List<Candidate> candidates = new ArrayList<>();
    if (withBytecode) candidates.add(new Candidate(Candidate.BYTECODE, "the program thread"));
    for (Offload o : offloads) {
      boolean reference = o.candidate().name().equals(ReferenceExecutor.NAME);
      if ((forced || !reference) && o.executor().supports(t, options)) candidates.add(o.candidate());
    }
    return candidates;
  }

  private static KernelKey key(LoopTemplate t, List<LoopSite> sites) {
    Map<String, String> classes = new HashMap<>();
    for (LoopSite s : sites) classes.put(s.className(), s.classHash() == null ? "" : s.classHash());
    return KernelKey.of(t, classes);
  }
}
