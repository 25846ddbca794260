package io.looplift.runtime;

import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Type;
import io.looplift.profiler.Profiler;
import io.looplift.profiler.TraceCacheStats;
import io.looplift.progen.fusion.Flush;
import io.looplift.progen.fusion.FlushArray;
import io.looplift.progen.fusion.ProgGen;
import io.looplift.progen.fusion.QueuedLoop;
import io.looplift.tracecache.CacheStats;
import io.looplift.tracecache.KeyAccumulator;
import io.looplift.tracecache.MacroCache;
import io.looplift.tracecache.TraceCache;
import io.looplift.tracecache.TraceKey;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns pending loops into bound program segments: the trace cache for a thread's queue (longest cached
 * prefix first, ProgGen for the rest), the macro cache for a region. Thread-safe; the key accumulators
 * passed in belong to the calling thread.
 */
final class ProgramBuilder {
  private static final int TRACE_BUCKETS = 1024;
  private static final int TRACES_PER_BUCKET = 8;
  private static final int REGIONS = 1024;

  private final TraceCache<CompiledProgram> traces = new TraceCache<>(TRACE_BUCKETS, TRACES_PER_BUCKET);
  private final MacroCache<CompiledProgram> regions = new MacroCache<>(REGIONS);
  private final boolean reassociate;
  private final Profiler profiler;

  ProgramBuilder(boolean reassociate, Profiler profiler) {
    this.reassociate = reassociate;
    this.profiler = profiler;
  }

  /**
   * Adds {@code l} to a trace key: its site, and per array whether it is a placeholder and the equality
   * classes of its identity and length, then those of its start and trip count. Scalar values are left
   * out: a program does not depend on them.
   */
  static void accumulate(KeyAccumulator key, PendingLoop l) {
    key.beginEntry(l.siteId);
    for (Object a : l.launch.arrays()) {
      key.identity(a);
      key.literal(a instanceof TempArray ? 1 : 0);
      key.value(TempArray.lengthOf(a));
    }
    key.value(l.launch.start());
    key.value(l.launch.trips());
  }

  /**
   * The segments computing {@code loops}, a thread's queue in order, whose key {@code key} has.
   *
   * @param scratch a key accumulator the caller owns, for the parts after a cached prefix
   */
  List<FlushWork.Segment> trace(List<PendingLoop> loops, KeyAccumulator key, KeyAccumulator scratch) {
    List<FlushWork.Segment> segments = new ArrayList<>();
    int from = 0;
    KeyAccumulator rest = key;
    while (from < loops.size()) {
      if (from > 0) {
        rest = scratch;
        rest.reset();
        for (int k = from; k < loops.size(); k++) accumulate(rest, loops.get(k));
      }
      TraceCache.Match<CompiledProgram> match = traces.longestMatch(rest);
      List<PendingLoop> part;
      CompiledProgram program;
      if (match != null) {
        part = List.copyOf(loops.subList(from, from + match.entries()));
        program = match.value();
      } else {
        part = List.copyOf(loops.subList(from, loops.size()));
        program = compile(part);
        TraceKey missed = rest.key();
        traces.put(missed, program);
        profiler.traceCacheMiss(missed.toString());
      }
      segments.add(new FlushWork.Segment(program, part, arraysById(part, null)));
      from += part.size();
    }
    return segments;
  }

  /** The segment computing the loops of region {@code regionId}, whose key {@code key} has. */
  FlushWork.Segment region(int regionId, List<PendingLoop> loops, KeyAccumulator key) {
    List<PendingLoop> part = List.copyOf(loops);
    TraceKey shape = key.key();
    CompiledProgram program = regions.get(regionId, shape);
    if (program == null) {
      program = compile(part);
      regions.put(regionId, shape, program);
    }
    return new FlushWork.Segment(program, part, arraysById(part, null));
  }

  /** ProgGen over {@code loops}. */
  private CompiledProgram compile(List<PendingLoop> loops) {
    int[][] ids = new int[loops.size()][];
    Object[] byId = arraysById(loops, ids);
    Type[] types = new Type[byId.length];
    List<QueuedLoop> queued = new ArrayList<>(loops.size());
    for (int k = 0; k < loops.size(); k++) {
      PendingLoop l = loops.get(k);
      LoopTemplate t = l.launch.template();
      for (int a = 0; a < ids[k].length; a++) types[ids[k][a]] = t.arrays().get(a);
      queued.add(new QueuedLoop(l.siteId, t, ids[k], l.launch.start(), l.launch.step(), l.launch.trips()));
    }
    List<FlushArray> arrays = new ArrayList<>(byId.length);
    for (int id = 0; id < byId.length; id++) arrays.add(new FlushArray(types[id], !(byId[id] instanceof TempArray)));
    return CompiledProgram.of(ProgGen.compile(new Flush(queued, arrays), reassociate), loops);
  }

  /**
   * The distinct arrays of {@code loops} in order of first appearance, which is how programs number them;
   * when {@code ids} is not null, also each loop's array ids.
   */
  private static Object[] arraysById(List<PendingLoop> loops, int[][] ids) {
    Map<Object, Integer> byArray = new IdentityHashMap<>();
    List<Object> arrays = new ArrayList<>();
    for (int k = 0; k < loops.size(); k++) {
      Object[] a = loops.get(k).launch.arrays();
      if (ids != null) ids[k] = new int[a.length];
      for (int slot = 0; slot < a.length; slot++) {
        Integer id = byArray.get(a[slot]);
        if (id == null) {
          id = arrays.size();
          byArray.put(a[slot], id);
          arrays.add(a[slot]);
        }
        if (ids != null) ids[k][slot] = id;
      }
    }
    return arrays.toArray();
  }

  /** The caches' totals for the report. */
  TraceCacheStats stats() {
    CacheStats t = traces.stats();
    CacheStats r = regions.stats();
    return new TraceCacheStats(t.hits(), t.misses(), t.evictions() + r.evictions(), r.hits(), r.misses());
  }
}
