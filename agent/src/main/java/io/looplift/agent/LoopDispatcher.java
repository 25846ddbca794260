package io.looplift.agent;

import io.looplift.analyzer.LoopSite;
import io.looplift.bridge.LoopBridge;
import io.looplift.executors.ExecutionException;
import io.looplift.executors.ExecutionOptions;
import io.looplift.executors.Executor;
import io.looplift.executors.Launch;
import io.looplift.ir.AffineIndex;
import io.looplift.ir.Interpreter;
import io.looplift.ir.Load;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Node;
import io.looplift.ir.Nodes;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import io.looplift.profiler.Profiler;
import io.looplift.tracecache.WorkQueue;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The pipeline behind {@link LoopBridge}: checks a loop's run-time guards, then defers it on the calling
 * thread's {@link WorkQueue} (loops without reductions) or runs it at once (loops with reductions, whose
 * results the caller reads as soon as the call returns).
 *
 * <p>Thread-safe: each program thread has its own queue; the executors are shared. Never throws: any
 * failure makes {@link #submit} return false after the calling thread's earlier deferred work has run, so
 * the original loop that then runs sees every result it would have seen without the agent.
 */
final class LoopDispatcher implements LoopBridge.Dispatcher {
  /** The queue length at which deferred launches run without waiting for a read point. */
  static final int QUEUE_LIMIT = 64;

  private final Sites sites;
  private final List<Executor> executors;
  private final ExecutionOptions options;
  private final Profiler profiler;
  private final AgentLog log;
  private final ThreadLocal<WorkQueue<Pending>> queues;
  private final Map<Integer, Plan> plans = new ConcurrentHashMap<>();
  /** Deferred launches of all threads not yet run: a sync with none anywhere skips its thread-local lookup. */
  private final AtomicInteger deferred = new AtomicInteger();
  private final ThreadLocal<Boolean> inRegion = new ThreadLocal<>();

  /** A launch accepted by {@link #submit} and waiting on its thread's queue. */
  private record Pending(int siteId, Sites.Entry entry, Launch launch) {}

  /** One array access of a template, as the bounds guard needs it. */
  private record Access(int array, AffineIndex index) {}

  /**
   * What the guards need from a template, computed once per site: the accesses to bounds-check, or why
   * they cannot be checked.
   */
  private record Plan(List<Access> accesses, String unchecked) {}

  /**
   * @param executors in order of preference; each launch runs on the first that supports it, and on the
   *     next one when that throws {@link ExecutionException}. The last should support every template.
   * @param queueLimit the length at which a thread's queue runs by itself
   */
  LoopDispatcher(Sites sites, List<Executor> executors, ExecutionOptions options, Profiler profiler, AgentLog log,
      int queueLimit) {
    this.sites = sites;
    this.executors = List.copyOf(executors);
    this.options = options;
    this.profiler = profiler;
    this.log = log;
    this.queues = ThreadLocal.withInitial(() -> new WorkQueue<>(queueLimit, this::runDeferred));
  }

  @Override
  public boolean submit(int siteId, Object[] arrays, long[] scalars, int start, int limit) {
    Sites.Entry entry = null;
    if (inRegion.get() != null) return false;
    try {
      entry = sites.get(siteId);
      if (entry == null || !entry.site().accepted()) return fallback(siteId, entry, "unknown loop site " + siteId);
      LoopSite site = entry.site();
      LoopTemplate t = site.template();
      int nParams = t.params().size();
      int nAccs = t.accumulators().size();
      if (arrays == null || scalars == null || arrays.length != t.arrays().size()
          || scalars.length < nParams + nAccs + 1) {
        return fallback(siteId, entry, "arguments do not match the loop site");
      }
      int step = site.shape().step();
      long trips = site.shape().trips(start, limit);
      if (trips < 0) return fallback(siteId, entry, "not a counted loop from " + start + " to " + limit);
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
      String failed = guard(plan(siteId, t), t, site.readsBeforeWrites(), args, params, accs, start, step, trips);
      if (failed != null) return fallback(siteId, entry, failed);
      if (executorFor(t) == null) return fallback(siteId, entry, "no executor supports this loop");
      Launch launch = new Launch(t, args, params, accs, start, step, (int) trips);
      WorkQueue<Pending> queue = queues.get();
      if (nAccs == 0) {
        scalars[last] = after;
        deferred.incrementAndGet();
        queue.add(new Pending(siteId, entry, launch));
        return true;
      }
      queue.flush();
      if (!run(siteId, entry, launch)) return fallback(siteId, entry, "every executor failed");
      System.arraycopy(accs, 0, scalars, nParams, nAccs);
      scalars[last] = after;
      return true;
    } catch (Throwable e) {
      log.debugOnce("submit " + siteId + " " + e, "internal error at loop site " + siteId + ": " + e);
      return fallback(siteId, entry, "internal error: " + e);
    }
  }

  // Until regions run through ProgGen, every region runs its original code.
  @Override
  public void beginRegion(int regionId) {
    inRegion.set(Boolean.TRUE);
  }

  @Override
  public Object temp(int length, int arrayType) {
    return null;
  }

  @Override
  public boolean endRegion() {
    inRegion.remove();
    return false;
  }

  @Override
  public void abortRegion() {
    inRegion.remove();
  }

  @Override
  public void sync() {
    if (deferred.get() == 0) return;
    try {
      queues.get().flush();
    } catch (Throwable e) {
      log.debugOnce("sync " + e, "internal error at a read point: " + e);
    }
  }

  /**
   * Records that the caller will run the original loop, after running this thread's deferred work so
   * that the loop reads what it would have read without the agent. Returns false.
   */
  private boolean fallback(int siteId, Sites.Entry entry, String reason) {
    try {
      queues.get().flush();
      if (entry != null) profiler.fallback(entry.profilerId(), reason);
      log.debugOnce("fallback " + siteId + " " + reason,
          "fallback " + (entry == null ? "site " + siteId : entry.where()) + ": " + reason);
    } catch (Throwable e) {
      log.debugOnce("fallback " + e, "internal error while falling back: " + e);
    }
    return false;
  }

  /** Runs a deferred launch; the caller has already skipped its loop, so failure here is lost work. */
  private void runDeferred(Pending p) {
    boolean ran;
    try {
      ran = run(p.siteId(), p.entry(), p.launch());
    } catch (Throwable e) {
      ran = false;
      log.debugOnce("deferred " + p.siteId() + " " + e, "internal error at " + p.entry().where() + ": " + e);
    } finally {
      deferred.decrementAndGet();
    }
    if (!ran) {
      log.warnOnce("lost " + p.siteId(),
          "could not run the loop at " + p.entry().where() + " on any executor; its results may be missing");
    }
  }

  /**
   * Runs {@code launch} on the first executor that supports it and completes it; returns false when
   * every one failed (none of them wrote anything, by the executor contract).
   */
  private boolean run(int siteId, Sites.Entry entry, Launch launch) {
    LoopTemplate t = launch.template();
    for (Executor x : executors) {
      if (!x.supports(t, options)) continue;
      long t0 = System.nanoTime();
      try {
        x.execute(launch, options);
      } catch (ExecutionException e) {
        log.debugOnce("exec " + x.name() + " " + siteId, x.name() + " failed on " + entry.where() + ": "
            + e.getMessage() + "; trying the next executor");
        continue;
      }
      long nanos = System.nanoTime() - t0;
      profiler.offloaded(entry.profilerId(), x.name(), nanos);
      // Until fusion lands, every launch is a kernel of its own, named after its loop.
      profiler.kernelLaunch(entry.where() + "#" + siteId, x.name(), nanos, entry.profilerId());
      return true;
    }
    return false;
  }

  private Executor executorFor(LoopTemplate t) {
    for (Executor x : executors) {
      if (x.supports(t, options)) return x;
    }
    return null;
  }

  private Plan plan(int siteId, LoopTemplate t) {
    Plan p = plans.get(siteId);
    if (p == null) p = plans.computeIfAbsent(siteId, k -> planOf(t));
    return p;
  }

  /** Every load and store index of {@code t}, decomposed into scale and invariant offset. */
  private static Plan planOf(LoopTemplate t) {
    List<Access> accesses = new ArrayList<>();
    for (Node n : Nodes.postOrder(t.roots())) {
      if (n instanceof Load l) {
        AffineIndex ai = AffineIndex.of(l.index());
        if (ai == null) return new Plan(List.of(), "the index into array " + l.array() + " is not affine");
        accesses.add(new Access(l.array(), ai));
      }
    }
    for (Store s : t.stores()) {
      AffineIndex ai = AffineIndex.of(s.index());
      if (ai == null) return new Plan(List.of(), "the index into array " + s.array() + " is not affine");
      accesses.add(new Access(s.array(), ai));
    }
    return new Plan(List.copyOf(accesses), null);
  }

  /**
   * Checks that the launch may run anywhere with Java's results: every array non-null and of its element
   * type, every access in bounds for the whole range, a written array passed twice only where the loop
   * reads before it writes and touches the same element through both. Returns null when
   * all hold, else a reason a user can read.
   */
  private static String guard(Plan plan, LoopTemplate t, boolean readsBeforeWrites, Object[] arrays, long[] params,
      long[] accs, int start, int step, long trips) {
    List<Type> types = t.arrays();
    for (int a = 0; a < types.size(); a++) {
      Object x = arrays[a];
      if (x == null) return "array " + a + " is null";
      Class<?> expected = arrayClass(types.get(a));
      if (x.getClass() != expected) {
        return "array " + a + " is a " + x.getClass().getSimpleName() + ", not a " + expected.getSimpleName();
      }
    }
    if (plan.unchecked() != null) return plan.unchecked();
    Interpreter in = new Interpreter(arrays, params, accs);
    long first = start;
    long last = start + (trips - 1) * step;
    long[] offsets = new long[plan.accesses().size()];
    for (int k = 0; k < offsets.length; k++) {
      Access access = plan.accesses().get(k);
      try {
        offsets[k] = (int) in.evaluate(access.index().offset(), 0);
      } catch (RuntimeException e) {
        // Such as a division by zero: the original loop throws it where Java would.
        return "the index offset into array " + access.array() + " cannot be evaluated: " + e;
      }
    }
    for (int a = 0; a < types.size(); a++) {
      if (!t.writes(a)) continue;
      for (int b = 0; b < types.size(); b++) {
        if (b != a && arrays[a] == arrays[b] && !(readsBeforeWrites && sameElements(plan, offsets, a, b))) {
          return "array " + a + " is written and is also array " + b + " at another element or order";
        }
      }
    }
    for (int k = 0; k < offsets.length; k++) {
      Access access = plan.accesses().get(k);
      int a = access.array();
      long offset = offsets[k];
      long length = Array.getLength(arrays[a]);
      long scale = access.index().scale();
      try {
        long lo = Math.addExact(Math.multiplyExact(scale, first), offset);
        long hi = Math.addExact(Math.multiplyExact(scale, last), offset);
        if (Math.min(lo, hi) >= 0 && Math.max(lo, hi) < length) continue;
      } catch (ArithmeticException e) {
        // Out of long range is out of bounds.
      }
      return "index out of bounds on array " + a;
    }
    return null;
  }

  /** True when every access to arrays {@code a} and {@code b} touches the same element in each iteration. */
  private static boolean sameElements(Plan plan, long[] offsets, int a, int b) {
    Access ref = null;
    long refOffset = 0;
    for (int k = 0; k < offsets.length; k++) {
      Access x = plan.accesses().get(k);
      if (x.array() != a && x.array() != b) continue;
      if (ref == null) {
        ref = x;
        refOffset = offsets[k];
      } else if (x.index().scale() != ref.index().scale() || offsets[k] != refOffset) {
        return false;
      }
    }
    return true;
  }

  private static Class<?> arrayClass(Type t) {
    return switch (t) {
      case BOOLEAN -> boolean[].class;
      case BYTE -> byte[].class;
      case CHAR -> char[].class;
      case SHORT -> short[].class;
      case INT -> int[].class;
      case LONG -> long[].class;
      case FLOAT -> float[].class;
      case DOUBLE -> double[].class;
    };
  }
}
