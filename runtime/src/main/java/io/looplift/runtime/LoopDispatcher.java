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
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The pipeline behind {@link LoopBridge}. A submitted loop's guards are checked, then it joins the calling
 * thread's queue. The queue is flushed at a read point ({@link #sync}), at its length or bytes limit, or by
 * a reduction, whose results the caller reads as soon as submit returns: the {@link ProgramBuilder} finds the
 * queued sequence in the trace cache or compiles it (fusing loops), and the E-scheduler runs the program —
 * on the calling thread when it is about to wait anyway, else in the background. A region's loops are
 * recorded apart and go to the E-scheduler together at {@link #endRegion}.
 *
 * <p>Thread-safe: each program thread has its own {@link ThreadWork}; the builder, runner and scheduler are
 * shared. Never throws: any failure makes {@link #submit} return false after the calling thread's earlier
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
  private final boolean everyLoop;
  private final ThreadLocal<ThreadWork> threads = ThreadLocal.withInitial(ThreadWork::new);
  /**
   * Loops queued and programs handed to the E-scheduler, of all threads, not yet waited for: a sync with
   * none anywhere skips its thread-local lookup.
   */
  private final AtomicInteger pending = new AtomicInteger();

  /**
   * @param queueLimit the length at which a thread's queue goes to the E-scheduler by itself
   * @param everyLoop offload every loop that passes its guards ({@code min.length=0}); otherwise a loop
   *     outside a region whose executor expects no gain runs as bytecode
   */
  LoopDispatcher(SiteTable sites, KernelRunner runner, EScheduler scheduler, Profiler profiler, Log log,
      int queueLimit, boolean everyLoop) {
    this.sites = sites;
    this.runner = runner;
    this.builder = new ProgramBuilder(runner.options().reassociate(), profiler);
    this.scheduler = scheduler;
    this.profiler = profiler;
    this.log = log;
    this.queueLimit = queueLimit;
    this.everyLoop = everyLoop;
    profiler.traceCache(builder::stats);
  }

  @Override
  public boolean submit(int siteId, Object[] arrays, long[] scalars, int start, int limit) {
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
        return true;
      }
      Object[] args = arrays.clone();
      long[] params = Arrays.copyOfRange(scalars, 0, nParams);
      long[] accs = Arrays.copyOfRange(scalars, nParams, last);
      String failed = guard.check(siteId, t, site.readsBeforeWrites(), args, params, accs, start, step, trips);
      if (failed != null) return decline(w, siteId, entry, failed);
      if (!runner.supports(t)) return decline(w, siteId, entry, "no executor supports this loop");
      Launch launch = new Launch(t, args, params, accs, start, step, (int) trips);
      if (!everyLoop && w.regionId < 0 && !runner.gains(launch)) {
        return decline(w, siteId, entry, "too little work to gain over " + trips + " iterations");
      }
      PendingLoop loop = new PendingLoop(siteId, entry, launch);
      if (w.regionId >= 0) {
        if (nAccs > 0) return decline(w, siteId, entry, "a reduction inside a region");
        w.region.add(loop);
        ProgramBuilder.accumulate(w.regionKey, loop);
        scalars[last] = after;
        return true;
      }
      w.queue.add(loop);
      w.queuedBytes += loop.bytes();
      ProgramBuilder.accumulate(w.queueKey, loop);
      pending.incrementAndGet();
      if (nAccs == 0) {
        scalars[last] = after;
        if (w.queue.size() >= queueLimit || w.queuedBytes >= QUEUE_BYTES_LIMIT) flush(w, false);
        return true;
      }
      flush(w, true);
      if (!loop.completed()) return decline(w, siteId, entry, "every executor failed");
      System.arraycopy(accs, 0, scalars, nParams, nAccs);
      scalars[last] = after;
      return true;
    } catch (Throwable e) {
      log.debugOnce("submit " + siteId + " " + e, "internal error at loop site " + siteId + ": " + e);
      return decline(w, siteId, entry, "internal error: " + e);
    }
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
   * agent, and records the fallback. Returns false.
   */
  private boolean decline(ThreadWork w, int siteId, SiteTable.Entry entry, String reason) {
    try {
      if (w != null && w.regionId >= 0) {
        w.regionFailed = true;
        return false;
      }
      if (w != null) flush(w, true);
      if (entry != null) profiler.fallback(entry.id(), reason);
      log.debugOnce("fallback " + siteId + " " + reason,
          "fallback " + (entry == null ? "site " + siteId : entry.where()) + ": " + reason);
    } catch (Throwable e) {
      log.debugOnce("fallback " + e, "internal error while falling back: " + e);
    }
    return false;
  }
}
