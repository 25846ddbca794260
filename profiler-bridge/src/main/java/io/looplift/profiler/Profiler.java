package io.looplift.profiler;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import jdk.jfr.FlightRecorder;

/**
 * LoopLift's profiler: collects call-site and kernel records and shows them as the JSON report, a human
 * summary, JFR events and the MBean {@code io.looplift:type=LoopLift}.
 *
 * <p>Thread-safe. The run-time methods ({@link #offloaded}, {@link #fallback}, {@link #kernelLaunch},
 * {@link #verified}, {@link #mismatch}) take no lock: counters are
 * {@link java.util.concurrent.atomic.LongAdder}s and a JFR event is only filled in when JFR has it enabled. A site id that {@link #siteAdded} never returned is ignored rather than
 * reported as an error, because the profiler must never make a loop fail. The reports are snapshots:
 * counters updated while a report is built may or may not be in it.
 */
public final class Profiler {
  /** The name {@link #registerMBean()} registers under. */
  static final String MBEAN_NAME = "io.looplift:type=LoopLift";

  private final Object sitesLock = new Object();
  /**
   * Sites by id. Copy-on-write under {@link #sitesLock}; the array is re-published (a volatile write) after
   * every addition so that a reader that sees an id also sees its record.
   */
  private volatile SiteRecord[] sites = new SiteRecord[16];
  private int siteCount; // guarded by sitesLock

  private final Map<String, KernelRecord> kernels = new ConcurrentHashMap<>();
  private final AtomicLong kernelOrder = new AtomicLong();
  private volatile List<String> devices = List.of();
  private volatile Supplier<TraceCacheStats> traceCache = () -> TraceCacheStats.NONE;
  /** Checked launches by kernel and executor ({@code kernelId + '\n' + executor}). */
  private final Map<String, VerifyRecord> verified = new ConcurrentHashMap<>();
  private final AtomicLong verifyOrder = new AtomicLong();
  private volatile String verifyMode = "off";
  private volatile int verifyEvery;
  private boolean mbeanRegistered; // guarded by this
  // Counted on every class-loading thread: adders, so that loading threads never contend on one counter.
  private final LongAdder transformClasses = new LongAdder();
  private final LongAdder transformNanos = new LongAdder();
  private final LongAdder deferredClasses = new LongAdder();
  private final LongAdder rememberedClasses = new LongAdder();
  private final LongAdder deferredNanos = new LongAdder();
  private volatile Runnable beforeReport = () -> { };

  /** Set once this JVM turns out to have no JFR ({@code jdk.jfr} left out of its runtime image). */
  private static volatile boolean jfrMissing;

  /**
   * Whether JFR has started in this JVM (a recording, {@code -XX:StartFlightRecording}, {@code jcmd JFR.start}).
   * Until then no event class is loaded: loading the first one initializes JFR's metadata and instruments the
   * class with JFR's bytecode library, about 0.15 s of CPU time and a burst of JIT work at the moment the
   * program's first loop runs, in every program, recorded or not. In a runtime without {@code jdk.jfr} it is
   * never started, and no call here may fail for it.
   */
  private static boolean jfrStarted() {
    if (jfrMissing) return false;
    try {
      return FlightRecorder.isInitialized();
    } catch (LinkageError e) { // NoClassDefFoundError: a runtime image made without jdk.jfr
      jfrMissing = true;
      return false;
    }
  }

  /** An empty profiler: no sites, kernels or devices. */
  public Profiler() {}

  /**
   * Records a loop site the analyzer looked at, offloaded or rejected, and returns its id: 0 for the first
   * site, then 1, 2, … in call order.
   *
   * @throws NullPointerException if {@code info} is null
   */
  public int siteAdded(SiteInfo info) {
    Objects.requireNonNull(info, "info");
    synchronized (sitesLock) {
      SiteRecord[] s = sites;
      int id = siteCount;
      if (id == s.length) s = Arrays.copyOf(s, s.length * 2);
      s[id] = new SiteRecord(id, info);
      siteCount = id + 1;
      sites = s;
      return id;
    }
  }

  /**
   * Turns site {@code siteId} into a rejected one with {@code reason}: it was accepted, but it runs as it
   * was from now on (its class could not be rewritten, or was rewritten again without it). The site keeps
   * its id, its runs and its place in the report.
   */
  public void siteDiscarded(int siteId, String reason) {
    SiteRecord site = site(siteId);
    if (site == null) return;
    SiteInfo i = site.info;
    site.info = new SiteInfo(i.className(), i.method(), i.descriptor(), i.line(), i.kind(), "rejected", reason,
        i.depth(), i.parallel());
  }

  /**
   * Leaves site {@code siteId} out of the report and the summary from now on: a rejected loop whose class was
   * rewritten again, now accepted under another id.
   */
  public void siteSuperseded(int siteId) {
    SiteRecord site = site(siteId);
    if (site != null) site.superseded = true;
  }

  /** How many runs of site {@code siteId} an executor has computed so far; 0 for an unknown site. */
  public long offloadedRuns(int siteId) {
    SiteRecord site = site(siteId);
    return site == null ? 0 : site.offloaded.sum();
  }

  /** Records one run of site {@code siteId} that executor {@code executor} computed in {@code nanos}. */
  public void offloaded(int siteId, String executor, long nanos) {
    SiteRecord site = site(siteId);
    if (site == null) return;
    site.offloaded.increment();
    site.timeNanos.add(Math.max(0, nanos));
    site.executors.add(executor);
    if (jfrStarted()) {
      OffloadEvent event = new OffloadEvent();
      if (event.isEnabled()) {
        event.site = siteId;
        event.className = site.info.className();
        event.method = site.info.method();
        event.line = site.info.line();
        event.executor = executor;
        event.runTime = nanos;
        event.commit();
      }
    }
  }

  /**
   * Records a fault of LoopLift's own while site {@code siteId} was launched (the launch then runs as the
   * original bytecode, recorded by {@link #fallback}); the report keeps the first. A clean run has none:
   * debug logging aside, this is where one shows.
   */
  public void internalError(int siteId, Throwable fault) {
    SiteRecord site = site(siteId);
    if (site != null && site.internalError == null) site.internalError = String.valueOf(fault);
  }

  /** Records one run of site {@code siteId} that ran as the original bytecode, and remembers its reason. */
  public void fallback(int siteId, String reason) {
    SiteRecord site = site(siteId);
    if (site == null) return;
    site.fallback.increment();
    site.lastFallback = reason;
    if (jfrStarted()) {
      FallbackEvent event = new FallbackEvent();
      if (event.isEnabled()) {
        event.site = siteId;
        event.className = site.info.className();
        event.method = site.info.method();
        event.line = site.info.line();
        event.reason = reason;
        event.commit();
      }
    }
  }

  /**
   * Records one launch of kernel {@code kernelId} on {@code executor} that took {@code nanos} and served
   * sites {@code siteIds} (several when loops were fused into it). Every call counts as one launch; the
   * kernel's {@code loops} in the report are the distinct site ids of its calls. Launch time is kept per
   * kernel; a site's own time comes from {@link #offloaded}, so the two never add up twice.
   */
  public void kernelLaunch(String kernelId, String executor, long nanos, int... siteIds) {
    String id = String.valueOf(kernelId);
    KernelRecord k = kernel(id);
    k.launches.increment();
    k.timeNanos.add(Math.max(0, nanos));
    k.executors.add(executor);
    for (int siteId : siteIds) k.served(siteId);
    if (jfrStarted()) {
      KernelEvent event = new KernelEvent();
      if (event.isEnabled()) {
        event.kernelId = id;
        event.executor = executor;
        event.sites = Arrays.toString(siteIds);
        event.kernelTime = nanos;
        event.commit();
      }
    }
  }

  /**
   * Adds one launch of kernel {@code kernelId} on a device: {@code transferNanos} spent moving
   * {@code transferBytes} of arrays to and from it, {@code deviceNanos} running the kernel there.
   */
  public void kernelDevice(String kernelId, long transferNanos, long transferBytes, long deviceNanos) {
    KernelRecord k = kernel(String.valueOf(kernelId));
    k.transferNanos.add(Math.max(0, transferNanos));
    k.transferBytes.add(Math.max(0, transferBytes));
    k.deviceNanos.add(Math.max(0, deviceNanos));
  }

  /** Sets where the report reads site {@code siteId}'s choice of executor from, replacing an earlier source. */
  public void siteSelection(int siteId, Supplier<SelectionInfo> source) {
    SiteRecord site = site(siteId);
    if (site != null) site.selection = Objects.requireNonNull(source, "source");
  }

  /** Sets where the report reads kernel {@code kernelId}'s choice of executor from, unless it has one. */
  public void kernelSelection(String kernelId, Supplier<SelectionInfo> source) {
    KernelRecord k = kernel(String.valueOf(kernelId));
    if (k.selection == null) k.selection = Objects.requireNonNull(source, "source");
  }

  /**
   * Sets what the report says verify mode is: {@code off}, {@code all}, or {@code sample} with one launch in
   * {@code every} checked after a kernel's first.
   */
  public void verifyMode(String mode, int every) {
    verifyEvery = every;
    verifyMode = Objects.requireNonNull(mode, "mode");
  }

  /**
   * Records one launch of kernel {@code kernelId} on {@code executor} that verify mode checked against the
   * reference executor, matching or not. {@code worst} is the largest difference it found between a value
   * and the reference's: in ulps for floating-point values (how many representable values apart), the
   * absolute difference for integers; 0 when every value was bit-identical.
   */
  public void verified(String kernelId, String executor, long worst) {
    VerifyRecord r = verifyRecord(kernelId, executor);
    r.checked.increment();
    r.worst.accumulate(Math.max(0, worst));
  }

  /**
   * Records that a checked launch (already counted by {@link #verified}) differed from the reference beyond
   * what the options allow, and emits a {@code looplift.VerifyMismatch} JFR event when JFR has it enabled.
   */
  public void mismatch(VerifyMismatch m) {
    verifyRecord(m.kernelId(), m.executor()).mismatches.increment();
    if (jfrStarted()) {
      VerifyMismatchEvent event = new VerifyMismatchEvent();
      if (event.isEnabled()) {
        event.kernelId = m.kernelId();
        event.executor = m.executor();
        event.sites = m.sites();
        event.location = m.location();
        event.expected = m.expected();
        event.actual = m.actual();
        event.commit();
      }
    }
  }

  private VerifyRecord verifyRecord(String kernelId, String executor) {
    String key = kernelId + '\n' + executor;
    VerifyRecord r = verified.get(key);
    return r != null ? r
        : verified.computeIfAbsent(key, k -> new VerifyRecord(kernelId, executor, verifyOrder.getAndIncrement()));
  }

  /** Sets the devices the executors found, one human-readable description each, replacing earlier ones. */
  public void devices(List<String> descriptions) {
    List<String> copy = new ArrayList<>();
    if (descriptions != null) {
      for (String d : descriptions) {
        if (d != null) copy.add(d);
      }
    }
    devices = List.copyOf(copy);
  }

  /** Sets where the report reads the trace-cache totals from (called at every report). */
  public void traceCache(Supplier<TraceCacheStats> source) {
    traceCache = Objects.requireNonNull(source, "source");
  }

  /**
   * Emits a {@code looplift.TraceCacheMiss} JFR event for the key described by {@code key} when JFR has
   * it enabled. Counts nothing: the totals come from {@link #traceCache}.
   */
  public void traceCacheMiss(String key) {
    if (jfrStarted()) {
      TraceCacheMissEvent event = new TraceCacheMissEvent();
      if (event.isEnabled()) {
        event.key = key;
        event.commit();
      }
    }
  }

  /**
   * Counts one class file the class file transformer examined and the {@code nanos} it spent on it, on the
   * thread that loads the class (the pre-scan, and the analysis and rewriting of the loops that may be
   * offloaded). Cheap: called for every class the program loads.
   */
  public void classTransformed(long nanos) {
    transformClasses.increment();
    transformNanos.add(Math.max(0, nanos));
  }

  /**
   * Counts one class whose remaining loops were analyzed for a report, off the class-loading path, in
   * {@code nanos}.
   */
  public void analysisDeferred(long nanos) {
    deferredClasses.increment();
    deferredNanos.add(Math.max(0, nanos));
  }

  /**
   * Counts one class file whose analysis at load was narrowed to the methods an earlier run found worth
   * analyzing (the others wait for a report, as {@link #analysisDeferred} ones do).
   */
  public void analysisRemembered() {
    rememberedClasses.increment();
  }

  /**
   * Sets what runs before every report is built ({@link #reportJson}, {@link #summary}, the MBean's loop
   * count): work that completes the report, such as analyses left until a report needs them. It runs on
   * the thread asking for the report and must not throw.
   */
  public void beforeReport(Runnable work) {
    beforeReport = Objects.requireNonNull(work, "work");
  }

  /**
   * The report of DESIGN.md as one line of JSON:
   * {@code {"loops":[…],"traceCache":{"hits","misses"},"kernels":[…],"devices":[…],
   * "transform":{"classes","nanos","deferred":{"classes","nanos"},"remembered":{"classes"}},"verify":{…}}}. Each loop has
   * {@code id} (its site id), {@code class}, {@code method}, {@code descriptor}, {@code line}, {@code kind},
   * {@code status}, {@code reason}, {@code executor} (the one that ran most of its offloaded runs, null if
   * none ran), {@code runs} ({@code offloaded}, {@code fallback}), {@code timeNanos}, {@code lastFallback}
   * and {@code internalError} (see {@link #internalError}), and {@code selection} once the measured selection
   * chose for it ({@link SelectionInfo});
   * each kernel has {@code id}, {@code executor}, {@code loops} (site ids), {@code launches},
   * {@code timeNanos}, {@code transferNanos}, {@code transferBytes}, {@code deviceNanos} (the device's own
   * time running it, the rest of {@code timeNanos} being transfers and staging on the host) and
   * {@code selection}. {@code verify} has
   * {@code mode} ({@code off}, {@code sample} with {@code every}, or {@code all}), the totals {@code checked}
   * and {@code mismatches}, and {@code kernels}: one entry per kernel and executor that had launches checked,
   * with {@code id}, {@code executor}, {@code checked}, {@code mismatches} and {@code worst} (see
   * {@link #verified}).
   */
  public String reportJson() {
    beforeReport.run();
    JsonWriter w = new JsonWriter().beginObject();
    w.name("loops").beginArray();
    for (SiteRecord s : siteSnapshot()) {
      SiteInfo i = s.info;
      w.beginObject()
          .name("id").value(s.id)
          .name("class").value(i.className())
          .name("method").value(i.method())
          .name("descriptor").value(i.descriptor())
          .name("line").value(i.line())
          .name("kind").value(i.kind());
      if (i.depth() > 1) {
        w.name("depth").value(i.depth()).name("parallel").beginArray();
        for (String v : i.parallel()) w.value(v);
        w.endArray();
      }
      w.name("status").value(i.status())
          .name("reason").value(i.reason())
          .name("executor").value(s.executors.mostUsed())
          .name("runs").beginObject()
          .name("offloaded").value(s.offloaded.sum())
          .name("fallback").value(s.fallback.sum())
          .endObject()
          .name("timeNanos").value(s.timeNanos.sum())
          .name("lastFallback").value(s.lastFallback)
          .name("internalError").value(s.internalError);
      SelectionInfo selection = selectionOf(s.selection);
      if (selection != null) selection.write(w.name("selection"));
      w.endObject();
    }
    w.endArray();
    TraceCacheStats tc = traceCache.get();
    w.name("traceCache").beginObject().name("hits").value(tc.hits()).name("misses").value(tc.misses())
        .name("evictions").value(tc.evictions()).name("regionHits").value(tc.regionHits())
        .name("regionMisses").value(tc.regionMisses()).endObject();
    w.name("kernels").beginArray();
    for (KernelRecord k : kernelSnapshot()) {
      w.beginObject().name("id").value(k.id).name("executor").value(k.executors.mostUsed());
      w.name("loops").beginArray();
      for (int siteId : k.sites()) w.value(siteId);
      w.endArray();
      w.name("launches").value(k.launches.sum()).name("timeNanos").value(k.timeNanos.sum())
          .name("transferNanos").value(k.transferNanos.sum()).name("transferBytes").value(k.transferBytes.sum())
          .name("deviceNanos").value(k.deviceNanos.sum());
      SelectionInfo selection = selectionOf(k.selection);
      if (selection != null) selection.write(w.name("selection"));
      w.endObject();
    }
    w.endArray();
    w.name("devices").beginArray();
    for (String d : devices) w.value(d);
    w.endArray();
    w.name("transform").beginObject().name("classes").value(transformClasses.sum())
        .name("nanos").value(transformNanos.sum())
        .name("deferred").beginObject().name("classes").value(deferredClasses.sum())
        .name("nanos").value(deferredNanos.sum()).endObject()
        .name("remembered").beginObject().name("classes").value(rememberedClasses.sum()).endObject()
        .endObject();
    writeVerify(w);
    return w.endObject().toString();
  }

  private void writeVerify(JsonWriter w) {
    List<VerifyRecord> records = verifySnapshot();
    w.name("verify").beginObject().name("mode").value(verifyMode);
    if (verifyMode.equals("sample")) w.name("every").value(verifyEvery);
    w.name("checked").value(verifiedLaunches()).name("mismatches").value(verifyMismatches());
    w.name("kernels").beginArray();
    for (VerifyRecord r : records) {
      w.beginObject().name("id").value(r.kernelId).name("executor").value(r.executor)
          .name("checked").value(r.checked.sum()).name("mismatches").value(r.mismatches.sum())
          .name("worst").value(r.worst.get()).endObject();
    }
    w.endArray().endObject();
  }

  /**
   * A short report for people: one line per loop site, for example
   * {@code offloaded  Demo.scale:12  map  jvm  runs 3/0  4.1 ms} (runs are offloaded/fallback), then one
   * line of totals. Lines end with {@code \n}.
   */
  public String summary() {
    beforeReport.run();
    StringBuilder sb = new StringBuilder();
    List<SiteRecord> all = siteSnapshot();
    long offloadedSites = 0;
    long offloadedRuns = 0;
    long fallbackRuns = 0;
    long nanos = 0;
    for (SiteRecord s : all) {
      SiteInfo i = s.info;
      boolean offloaded = "offloaded".equals(i.status());
      long off = s.offloaded.sum();
      long fb = s.fallback.sum();
      long t = s.timeNanos.sum();
      if (offloaded) offloadedSites++;
      offloadedRuns += off;
      fallbackRuns += fb;
      nanos += t;
      sb.append(String.format(Locale.ROOT, "%-10s %s  %s", i.status(), where(i), i.kind()));
      if (offloaded) {
        String executor = s.executors.mostUsed();
        sb.append("  ").append(executor == null ? "-" : executor)
            .append("  runs ").append(off).append('/').append(fb)
            .append("  ").append(millis(t));
        String last = s.lastFallback;
        if (last != null) sb.append("  last fallback: ").append(last);
        SelectionInfo selection = selectionOf(s.selection);
        if (selection != null) sb.append("  chose ").append(selection.summary());
      } else {
        sb.append("  ").append(i.reason());
      }
      sb.append('\n');
    }
    long launches = 0;
    long kernelNanos = 0;
    List<KernelRecord> ks = kernelSnapshot();
    for (KernelRecord k : ks) {
      launches += k.launches.sum();
      kernelNanos += k.timeNanos.sum();
    }
    TraceCacheStats tc = traceCache.get();
    sb.append(String.format(Locale.ROOT,
        "looplift: %d loops (%d offloaded, %d rejected), runs %d/%d, %s; %d kernels, %d launches, %s;"
            + " trace cache %d hits, %d misses; %d classes examined in %s, %d analyzed later for the report in %s",
        all.size(), offloadedSites, all.size() - offloadedSites, offloadedRuns, fallbackRuns, millis(nanos),
        ks.size(), launches, millis(kernelNanos), tc.hits(), tc.misses(), transformClasses.sum(),
        millis(transformNanos.sum()), deferredClasses.sum(), millis(deferredNanos.sum())));
    if (!verifyMode.equals("off")) {
      sb.append(String.format(Locale.ROOT, "; verify=%s %d checked, %d mismatches", verifyMode, verifiedLaunches(),
          verifyMismatches()));
    }
    return sb.append('\n').toString();
  }

  /**
   * Writes {@link #reportJson()} to {@code path}: to a temporary file in the same directory first, then
   * moved into place, so a reader never sees a partial report. Never throws: on failure it prints
   * {@code looplift: cannot write report to PATH: reason} to stderr and leaves no temporary file behind.
   */
  public void writeReport(Path path) {
    Path tmp = null;
    try {
      Path target = path.toAbsolutePath();
      Path dir = target.getParent();
      // Checked first so that the message names the directory, not the temporary file in it.
      if (dir != null && !Files.isDirectory(dir)) throw new NoSuchFileException(dir.toString(), null, "no such directory");
      tmp = Files.createTempFile(dir, target.getFileName() + ".", ".tmp");
      Files.writeString(tmp, reportJson() + "\n", StandardCharsets.UTF_8);
      try {
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
      }
      tmp = null;
    } catch (Exception e) {
      System.err.println("looplift: cannot write report to " + path + ": " + reason(e));
    } finally {
      if (tmp != null) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException | RuntimeException ignored) {
          // The failure is already reported; a leftover temporary file is all that remains of it.
        }
      }
    }
  }

  /**
   * Registers this profiler's MBean as {@code io.looplift:type=LoopLift} in the platform MBean server,
   * replacing a bean another profiler registered there (a re-attached agent's profiler is the live one).
   * Idempotent and never throws; returns whether this profiler's bean is registered.
   *
   * <p>It starts the platform MBean server, which initializes {@code java.util.logging} and fills the heap with
   * the platform's introspected MBeans: an agent should call it once something else has started the server
   * ({@link #platformMBeanServerStarted}), never in {@code premain}, or an application that installs its own
   * {@code LogManager} will find the default one already in place. In a runtime without
   * {@code java.management} there is no MBean, and nothing is said.
   */
  public synchronized boolean registerMBean() {
    try {
      mbeanRegistered = MBeanRegistration.register(new MBeanView(this), mbeanRegistered);
    } catch (LinkageError e) { // NoClassDefFoundError: a runtime image made without java.management
      mbeanRegistered = false;
    }
    return mbeanRegistered;
  }

  /**
   * Whether the platform MBean server has been started, by the program, a JMX agent or a JMX client's attach;
   * false in a runtime without {@code java.management}. Asking starts nothing.
   */
  public static boolean platformMBeanServerStarted() {
    try {
      return MBeanRegistration.platformServerStarted();
    } catch (LinkageError e) { // NoClassDefFoundError: a runtime image made without java.management
      return false;
    }
  }

  long offloadedRuns() {
    long n = 0;
    for (SiteRecord s : siteSnapshot()) n += s.offloaded.sum();
    return n;
  }

  long fallbackRuns() {
    long n = 0;
    for (SiteRecord s : siteSnapshot()) n += s.fallback.sum();
    return n;
  }

  long transformedClasses() {
    return transformClasses.sum();
  }

  long transformNanos() {
    return transformNanos.sum();
  }

  long verifiedLaunches() {
    long n = 0;
    for (VerifyRecord r : verified.values()) n += r.checked.sum();
    return n;
  }

  long verifyMismatches() {
    long n = 0;
    for (VerifyRecord r : verified.values()) n += r.mismatches.sum();
    return n;
  }

  int loopCount() {
    beforeReport.run();
    synchronized (sitesLock) {
      return siteCount;
    }
  }

  private KernelRecord kernel(String id) {
    KernelRecord k = kernels.get(id);
    return k != null ? k : kernels.computeIfAbsent(id, x -> new KernelRecord(x, kernelOrder.getAndIncrement()));
  }

  /** What {@code source} says now; null when there is none or it failed (the report goes on without it). */
  private static SelectionInfo selectionOf(Supplier<SelectionInfo> source) {
    if (source == null) return null;
    try {
      return source.get();
    } catch (RuntimeException e) {
      return null;
    }
  }

  private SiteRecord site(int siteId) {
    SiteRecord[] s = sites;
    return siteId >= 0 && siteId < s.length ? s[siteId] : null;
  }

  /** The sites to report, in id order: every site but the superseded. */
  private List<SiteRecord> siteSnapshot() {
    SiteRecord[] all;
    synchronized (sitesLock) {
      all = Arrays.copyOf(sites, siteCount);
    }
    List<SiteRecord> shown = new ArrayList<>(all.length);
    for (SiteRecord s : all) {
      if (!s.superseded) shown.add(s);
    }
    return shown;
  }

  private List<KernelRecord> kernelSnapshot() {
    List<KernelRecord> ks = new ArrayList<>(kernels.values());
    ks.sort(Comparator.comparingLong(k -> k.order));
    return ks;
  }

  private List<VerifyRecord> verifySnapshot() {
    List<VerifyRecord> rs = new ArrayList<>(verified.values());
    rs.sort(Comparator.comparingLong(r -> r.order));
    return rs;
  }

  private static String where(SiteInfo i) {
    String cls = String.valueOf(i.className());
    String simple = cls.substring(cls.lastIndexOf('.') + 1);
    return simple + "." + i.method() + (i.line() >= 0 ? ":" + i.line() : "");
  }

  private static String millis(long nanos) {
    return String.format(Locale.ROOT, "%.1f ms", nanos / 1e6);
  }

  /** A reason a user can act on; file-system messages alone are often just the file name. */
  static String reason(Exception e) {
    if (e instanceof FileSystemException) {
      FileSystemException f = (FileSystemException) e;
      String what = f.getReason();
      if (what == null) {
        if (f instanceof NoSuchFileException) {
          what = "no such file or directory";
        } else if (f instanceof AccessDeniedException) {
          what = "permission denied";
        } else {
          what = f.getClass().getSimpleName();
        }
      }
      return what + ": " + f.getFile();
    }
    return e.getMessage() != null ? e.getMessage() : e.toString();
  }
}
