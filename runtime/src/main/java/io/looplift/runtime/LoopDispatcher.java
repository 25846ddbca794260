package io.looplift.runtime;

import io.looplift.ir.LoopSite;
import io.looplift.bridge.LoopBridge;
import io.looplift.executors.Launch;
import io.looplift.executors.schedule.EScheduler;
import io.looplift.executors.schedule.Ticket;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Type;
import io.looplift.profiler.Profiler;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * The pipeline behind {@link LoopBridge}. The {@link Selections} choose what runs a submitted loop: its original
 * bytecode (the caller runs it, timed when it is a measuring run) or an executor, in which case its guards are
 * checked and it joins the calling thread's queue. The queue is flushed at a read point ({@link #sync}), at its
 * length or bytes limit, or by a reduction, whose results the caller reads as soon as submit returns: the {@link
 * ProgramBuilder} finds the queued sequence in the trace cache or compiles it (fusing loops), and the
 * E-scheduler runs the program — on the calling thread when it is about to wait anyway, else in the background.
 * A region's loops are recorded apart and go to the E-scheduler together at {@link #endRegion}.
 *
 * <p>Thread-safe: each program thread has its own {@link ThreadWork}; the builder, runner and scheduler are
 * shared. Never throws: any failure makes {@link #submit} decline after the calling thread's earlier
 * work has completed, so the original loop that then runs sees every result it would have seen without the
 * agent.
 */
final class LoopDispatcher implements LoopBridge.Dispatcher {
  /** The queue length at which deferred loops go to the E-scheduler without waiting for a read point. */
  static final int QUEUE_LIMIT = 64;
  /**
   * The bytes of array data queued loops may touch before they go to the E-scheduler without waiting for a
   * read point: that much work is worth starting early, even at the cost of fusing it with what follows.
   */
  static final long QUEUE_BYTES_LIMIT = 1L << 30;

  private final SiteTable sites;
  private final KernelRunner runner;
  private final ProgramBuilder builder;
  private final EScheduler scheduler;
  private final Profiler profiler;
  private final Log log;
  private final LaunchGuard guard = new LaunchGuard();
  private final int queueLimit;
  private final Selections selections;
  private final LongSupplier clock;
  private final LongSupplier threadCpu;
  private final SiteRests rests;
  private final Predicate<Class<?>> initialized;
  private final FieldReader fields = new FieldReader();
  private final ShortLoops shortLoops;
  /** By site id: the launch shape for which the selection settled on the original loop, if it did. */
  private final Map<Integer, SettledBytecode> settled = new ConcurrentHashMap<>();
  private final ThreadLocal<ThreadWork> threads = ThreadLocal.withInitial(ThreadWork::new);
  /**
   * Loops queued and programs handed to the E-scheduler, of all threads, not yet waited for: a sync with
   * none anywhere skips its thread-local lookup.
   */
  private final AtomicInteger pending = new AtomicInteger();

  /**
   * @param selections chooses what runs each launch outside a region
   * @param queueLimit the length at which a thread's queue goes to the E-scheduler by itself
   * @param clock nanoseconds, for timing the original loops the selection measures
   * @param threadCpu the calling thread's processor time in nanoseconds, negative where unknown: a measured
   *     original loop counts it when shorter than the clock's time (see {@link OriginalTimings})
   * @param rests rests the sites whose selection keeps their runs as bytecode for a while
   * @param initialized whether a class is initialized (without initializing it), see {@link #initialized}
   * @param shortLoops puts back the loops that only ever run too short to offload
   */
  LoopDispatcher(SiteTable sites, KernelRunner runner, Selections selections, EScheduler scheduler, Profiler profiler,
      Log log, int queueLimit, LongSupplier clock, LongSupplier threadCpu, SiteRests rests,
      Predicate<Class<?>> initialized, ShortLoops shortLoops) {
    this.sites = sites;
    this.runner = runner;
    this.builder = new ProgramBuilder(runner.options().reassociate(), profiler);
    this.scheduler = scheduler;
    this.profiler = profiler;
    this.log = log;
    this.queueLimit = queueLimit;
    this.selections = selections;
    this.clock = clock;
    this.threadCpu = threadCpu;
    this.rests = rests;
    this.initialized = initialized;
    this.shortLoops = shortLoops;
    profiler.traceCache(builder::stats);
  }

  @Override
  public int submit(int siteId, Object[] arrays, long[] scalars, int start, int limit) {
    SiteTable.Entry entry = null;
    ThreadWork w = null;
    try {
      w = threads.get();
      entry = sites.get(siteId);
      if (entry == null || !entry.site().accepted()) return decline(w, siteId, entry, "unknown loop site " + siteId);
      LoopSite site = entry.site();
      LoopTemplate t = site.template();
      int nParams = t.params().size();
      int nAccs = t.accumulators().size();
      if (arrays == null || scalars == null || arrays.length != t.arrays().size()
          || scalars.length < nParams + nAccs + 1) {
        return decline(w, siteId, entry, "arguments do not match the loop site");
      }
      int step = site.shape().step();
      long trips = site.shape().trips(start, limit);
      if (trips < 0) return decline(w, siteId, entry, "not a counted loop from " + start + " to " + limit);
      int last = nParams + nAccs;
      int after = (int) (start + trips * step);
      if (trips == 0) {
        // The original loop would not touch any array either: nothing to check, nothing to run.
        scalars[last] = after;
        return LoopBridge.TAKEN;
      }
      SettledBytecode memo = w.regionId < 0 ? settled.get(siteId) : null;
      if (memo != null && memo.covers(trips, scalars, arrays, selections.devices())) {
        flush(w, true);
        profiler.fallback(entry.id(), memo.reason + rest(siteId, memo));
        return LoopBridge.DECLINED;
      }
      Object[] args = arrays.clone();
      long[] params = Arrays.copyOfRange(scalars, 0, nParams);
      long[] accs = Arrays.copyOfRange(scalars, nParams, last);
      Launch launch = new Launch(t, args, params, accs, start, step, (int) trips);
      if (w.regionId >= 0) {
        String failed = guard.check(siteId, t, site.readsBeforeWrites(), args, params, accs, start, step, trips);
        if (failed != null) return decline(w, siteId, entry, failed);
        if (!runner.supports(t)) return decline(w, siteId, entry, "no executor supports this loop");
        if (nAccs > 0) return decline(w, siteId, entry, "a reduction inside a region");
        PendingLoop loop = new PendingLoop(siteId, entry, launch, null);
        w.region.add(loop);
        ProgramBuilder.accumulate(w.regionKey, loop);
        scalars[last] = after;
        return LoopBridge.TAKEN;
      }
      // Chosen before the guards: a loop the selection keeps as bytecode needs none of them.
      Optional<Selections.Decision> decided = selections.site(entry, launch,
          memo == null ? 0 : memo.declined(clock.getAsLong()));
      if (decided.isEmpty()) return decline(w, siteId, entry, "no executor can run this loop");
      Selections.Decision decision = decided.get();
      if (decision.choice().bytecode()) {
        String rested = "";
        if (!decision.choice().measuring()) {
          SettledBytecode fresh = SettledBytecode.of(!t.isFlat(), trips, scalars, nParams, arrays,
              fallbackReason(decision), decision.launchesBeforeAsking(), scalars[last], clock.getAsLong(),
              decision.devices(), decision.devicesOpening());
          settled.put(siteId, fresh);
          rested = rest(siteId, fresh);
        } else {
          settled.remove(siteId);
        }
        return runOriginal(w, entry, decision, rested);
      }
      settled.remove(siteId);
      String failed = guard.check(siteId, t, site.readsBeforeWrites(), args, params, accs, start, step, trips);
      if (failed != null) {
        decision.selection().abandon(decision.choice());
        return decline(w, siteId, entry, failed);
      }
      // A measuring run goes alone, so that its time is its own.
      boolean measuring = decision.choice().measuring();
      if (measuring) flush(w, true);
      PendingLoop loop = new PendingLoop(siteId, entry, launch, decision);
      w.queue.add(loop);
      w.queuedBytes += loop.bytes();
      ProgramBuilder.accumulate(w.queueKey, loop);
      pending.incrementAndGet();
      if (nAccs == 0) {
        scalars[last] = after;
        if (measuring || w.queue.size() >= queueLimit || w.queuedBytes >= QUEUE_BYTES_LIMIT) flush(w, measuring);
        return LoopBridge.TAKEN;
      }
      flush(w, true);
      if (!loop.completed()) return decline(w, siteId, entry, "every executor failed");
      System.arraycopy(accs, 0, scalars, nParams, nAccs);
      scalars[last] = after;
      return LoopBridge.TAKEN;
    } catch (Throwable e) {
      log.debugOnce("submit " + siteId + " " + e, "internal error at loop site " + siteId + ": " + e);
      if (entry != null) profiler.internalError(entry.id(), e);
      return decline(w, siteId, entry, "internal error: " + e);
    }
  }

  /**
   * Lets the caller run its original loop, which the selection chose: first completes this thread's earlier
   * work, so that the loop reads what it would have read without the agent. A measuring run is timed until
   * the loop reports back through {@link #ran}.
   */
  private int runOriginal(ThreadWork w, SiteTable.Entry entry, Selections.Decision decision, String rested) {
    flush(w, true);
    profiler.fallback(entry.id(), fallbackReason(decision) + rested);
    if (!decision.choice().measuring()) return LoopBridge.DECLINED;
    long cpu = threadCpu.getAsLong();
    w.timings.start(entry.id(), decision, clock.getAsLong(), cpu);
    return LoopBridge.TIMED;
  }

  /**
   * Rests {@code siteId} when the selection, settled on its original bytecode in {@code memo}, will not be
   * asked about launches like this one for long enough (see {@link SettledBytecode#restFor}): its runs as long
   * as this one's (by the preamble's measure, up to the next power of two) then go to the original loop without
   * being offered, for the call that offers them slowed the original loop around it (see
   * {@link LoopBridge#rest}). Returns what the report adds to the run's reason: nothing when it does not rest.
   */
  private String rest(int siteId, SettledBytecode memo) {
    long nanos = memo.restFor(clock.getAsLong());
    if (nanos < 0) return "";
    long length = memo.length;
    long upTo = length >= 1L << 62 ? Long.MAX_VALUE : (Long.highestOneBit(length) << 1) - 1;
    if (!rests.rest(siteId, upTo)) {
      memo.unrest();
      return "";
    }
    if (nanos == Long.MAX_VALUE) return "; runs of length up to " + upTo + " run as bytecode from now on, unasked";
    rests.offerAgainIn(siteId, nanos);
    return "; runs of length up to " + upTo + " run as bytecode unasked for " + nanos / 1_000_000
        + " ms, until the selection is due to be asked again";
  }

  private static String fallbackReason(Selections.Decision decision) {
    return "ran as bytecode, the selection's choice: " + decision.choice().why();
  }

  @Override
  public void ran(int siteId) {
    try {
      threads.get().timings.ran(siteId, clock.getAsLong(), threadCpu);
    } catch (Throwable e) {
      log.debugOnce("ran " + e, "internal error after a timed loop: " + e);
    }
  }

  @Override
  public boolean initialized(Class<?> c) {
    try {
      return initialized.test(c);
    } catch (Throwable e) {
      log.debugOnce("initialized " + e, "cannot tell whether " + c + " is initialized: " + e);
      return false;
    }
  }

  @Override
  public void fallback(int siteId, String reason) {
    try {
      SiteTable.Entry entry = sites.get(siteId);
      if (entry != null) profiler.fallback(entry.id(), reason);
    } catch (Throwable e) {
      log.debugOnce("fallback " + e, "internal error while falling back: " + e);
    }
  }

  @Override
  public Object field(Object obj, String owner, String name) throws Throwable {
    return fields.read(obj, owner, name);
  }

  @Override
  public void tooShort(int siteId, Class<?> caller) {
    shortLoops.tooShort(siteId, caller);
  }

  @Override
  public void sync() {
    if (pending.get() == 0) return;
    try {
      flush(threads.get(), true);
    } catch (Throwable e) {
      log.debugOnce("sync " + e, "internal error at a read point: " + e);
    }
  }

  @Override
  public void beginRegion(int regionId) {
    try {
      threads.get().startRegion(regionId);
    } catch (Throwable e) {
      log.debugOnce("region " + e, "internal error at a region: " + e);
    }
  }

  @Override
  public Object temp(int length, int arrayType) {
    Type type = TempArray.typeOf(arrayType);
    // Null fails the guard of the first loop that uses it, which declines the region; the original code
    // then throws NegativeArraySizeException where it would have.
    return type == null || length < 0 ? null : new TempArray(type, length);
  }

  @Override
  public boolean endRegion() {
    ThreadWork w = null;
    try {
      w = threads.get();
      if (w.regionId < 0 || w.regionFailed || w.region.isEmpty()) return false;
      FlushWork.Segment segment = builder.region(w.regionId, w.region, w.regionKey);
      flush(w, false);
      w.outstanding.add(scheduler.submit(new FlushWork(List.of(segment), List.of(), runner, profiler, log)));
      pending.incrementAndGet();
      return true;
    } catch (Throwable e) {
      log.debugOnce("region end " + e, "internal error at the end of a region: " + e);
      return false;
    } finally {
      if (w != null) w.endRegion();
    }
  }

  @Override
  public void abortRegion() {
    try {
      threads.get().endRegion();
    } catch (Throwable e) {
      log.debugOnce("region abort " + e, "internal error at a region: " + e);
    }
  }

  /**
   * Hands the thread's queue to the E-scheduler as one program; with {@code wait}, runs it on this thread
   * and waits for every program the thread handed over before.
   */
  private void flush(ThreadWork w, boolean wait) {
    if (!w.queue.isEmpty()) {
      List<PendingLoop> loops = new ArrayList<>(w.queue);
      w.queue.clear();
      w.queuedBytes = 0;
      List<FlushWork.Segment> segments = List.of();
      List<PendingLoop> unfused = List.of();
      try {
        segments = builder.trace(loops, w.queueKey, w.scratchKey);
      } catch (RuntimeException e) {
        log.debugOnce("compile " + e, "could not compile queued loops (" + e + "); they run one by one");
        unfused = loops;
      } finally {
        w.queueKey.reset();
      }
      FlushWork work = new FlushWork(segments, unfused, runner, profiler, log);
      if (wait) {
        pending.addAndGet(-loops.size());
        report(scheduler.runInline(work));
      } else {
        w.outstanding.add(scheduler.submit(work));
        pending.addAndGet(1 - loops.size());
      }
    }
    if (wait && !w.outstanding.isEmpty()) {
      for (Ticket t : w.outstanding) {
        t.await();
        report(t);
      }
      pending.addAndGet(-w.outstanding.size());
      w.outstanding.clear();
    }
  }

  private void report(Ticket t) {
    Throwable failure = t.failure();
    if (failure != null) {
      log.warnOnce("work " + failure, "internal error while running loops: " + failure + "; results may be missing");
    }
  }

  /**
   * Tells the caller to run its original loop: inside a region, declines the region; otherwise first
   * completes this thread's earlier work, so that the loop reads what it would have read without the
   * agent, and records the fallback. Returns {@link LoopBridge#DECLINED}.
   */
  private int decline(ThreadWork w, int siteId, SiteTable.Entry entry, String reason) {
    try {
      if (w != null && w.regionId >= 0) {
        w.regionFailed = true;
        return LoopBridge.DECLINED;
      }
      if (w != null) flush(w, true);
      if (entry != null) profiler.fallback(entry.id(), reason);
      log.debugOnce("fallback " + siteId + " " + reason,
          "fallback " + (entry == null ? "site " + siteId : entry.where()) + ": " + reason);
    } catch (Throwable e) {
      log.debugOnce("fallback " + e, "internal error while falling back: " + e);
    }
    return LoopBridge.DECLINED;
  }
}
