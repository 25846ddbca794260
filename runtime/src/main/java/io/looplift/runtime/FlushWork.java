package io.looplift.runtime;

import io.looplift.executors.Launch;
import io.looplift.executors.schedule.ScheduledWork;
import io.looplift.profiler.Profiler;
import io.looplift.progen.fusion.KernelSpec;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The kernels of one flush (or one region) bound to their arrays and scalars, as the E-scheduler runs them.
 * A kernel that no executor can run falls back to its loops one by one, unfused, so the results are always
 * those of the original loops; only a loop that no executor can run at all is lost, and reported.
 */
final class FlushWork implements ScheduledWork {
  /**
   * One compiled program sequence bound to consecutive pending loops.
   *
   * @param arraysById the flush-wide arrays by id, as the program numbers them (placeholders included)
   */
  record Segment(CompiledProgram program, List<PendingLoop> loops, Object[] arraysById) {}

  private final List<Segment> segments;
  private final List<PendingLoop> unfused;
  private final KernelRunner runner;
  private final Profiler profiler;
  private final Log log;
  private final Object[] reads;
  private final Object[] writes;
  private final long bytes;
  /** How many launches the work makes at most: its kernels and its loops run one by one. */
  private final int launches;
  /** The storage given to placeholders, one array each, shared by every kernel of the work. */
  private final Map<TempArray, Object> temporaries = new IdentityHashMap<>();

  /**
   * @param segments compiled programs, run in order
   * @param unfused loops to run after them one by one, as they are (used when compiling failed)
   */
  FlushWork(List<Segment> segments, List<PendingLoop> unfused, KernelRunner runner, Profiler profiler, Log log) {
    this.segments = List.copyOf(segments);
    this.unfused = List.copyOf(unfused);
    this.runner = runner;
    this.profiler = profiler;
    this.log = log;
    List<Object> r = new ArrayList<>();
    List<Object> w = new ArrayList<>();
    long b = 0;
    int n = unfused.size();
    for (Segment s : segments) {
      List<KernelSpec> kernels = s.program().sequence.kernels();
      n += kernels.size();
      for (int k = 0; k < kernels.size(); k++) {
        int[] ids = kernels.get(k).arrayIds();
        for (int slot = 0; slot < ids.length; slot++) {
          Object array = s.arraysById()[ids[slot]];
          // Placeholders are private to this work: no other work can depend on them.
          if (array instanceof TempArray) continue;
          if (s.program().reads[k][slot]) addOnce(r, array);
          if (s.program().writes[k][slot]) addOnce(w, array);
          b += (long) TempArray.lengthOf(array) * kernels.get(k).template().arrays().get(slot).byteSize();
        }
      }
    }
    for (PendingLoop l : unfused) {
      b += l.bytes();
      for (int a = 0; a < l.launch.arrays().length; a++) {
        if (l.launch.arrays()[a] instanceof TempArray) continue;
        addOnce(r, l.launch.arrays()[a]);
        if (l.launch.template().writes(a)) addOnce(w, l.launch.arrays()[a]);
      }
    }
    this.reads = r.toArray();
    this.writes = w.toArray();
    this.bytes = b;
    this.launches = n;
  }

  private static void addOnce(List<Object> list, Object array) {
    for (Object o : list) {
      if (o == array) return;
    }
    list.add(array);
  }

  @Override
  public Object[] reads() { return reads; }

  @Override
  public Object[] writes() { return writes; }

  @Override
  public long bytes() { return bytes; }

  @Override
  public void run() {
    FlushSessions sessions = runner.sessions(launches);
    try {
      for (Segment s : segments) runSegment(s, sessions);
      for (PendingLoop l : unfused) runAlone(l, sessions);
    } finally {
      runner.finish(sessions);
    }
  }

  private void runSegment(Segment s, FlushSessions sessions) {
    Object[] byId = s.arraysById().clone();
    for (int id : s.program().sequence.materialized()) byId[id] = storage(byId[id], sessions);
    List<long[]> params = new ArrayList<>(s.loops().size());
    List<long[]> accs = new ArrayList<>(s.loops().size());
    for (PendingLoop l : s.loops()) {
      params.add(l.launch.params());
      accs.add(l.launch.accumulators());
    }
    for (int e : s.program().sequence.eliminatedLoops()) {
      PendingLoop l = s.loops().get(e);
      profiler.offloaded(l.entry.id(), "eliminated", 0);
      if (l.decision != null) l.decision.selection().abandon(l.decision.choice());
      l.complete();
    }
    List<KernelSpec> kernels = s.program().sequence.kernels();
    for (int k = 0; k < kernels.size(); k++) {
      KernelSpec spec = kernels.get(k);
      PendingLoop range = s.loops().get(spec.rangeLoop());
      List<PendingLoop> members = new ArrayList<>(spec.loops().length);
      for (int l : spec.loops()) members.add(s.loops().get(l));
      String kernel = s.program().kernelNames[k];
      try {
        Launch launch = new Launch(spec.template(), spec.bindArrays(byId), spec.bindParams(params),
            spec.bindAccumulators(accs), range.launch.start(), range.launch.step(), range.launch.trips());
        if (runner.run(launch, kernel, members, sessions)) {
          spec.scatterAccumulators(launch.accumulators(), accs);
          for (PendingLoop l : members) l.complete();
          continue;
        }
      } catch (RuntimeException e) {
        lost(kernel, members, e);
        continue;
      }
      for (PendingLoop l : members) runAlone(l, sessions);
    }
  }

  /**
   * Says that an internal error ended {@code kernel}'s launch in an unknown state: its loops are neither
   * completed nor run again (a launch that wrote part of an array it also reads cannot simply be repeated),
   * and the work goes on with its other kernels. A loop whose caller waits for it (a reduction) then runs as
   * the original bytecode; the others' results may be missing, which stderr says.
   */
  private void lost(String kernel, List<PendingLoop> loops, RuntimeException e) {
    log.warnOnce("lost " + kernel, "internal error running the loop at " + loops.get(0).entry.where()
        + (loops.size() > 1 ? " and " + (loops.size() - 1) + " fused with it" : "") + " (" + e
        + "); its results may be missing");
  }

  /** Runs one loop as its own kernel, its placeholders given storage. */
  private void runAlone(PendingLoop l, FlushSessions sessions) {
    Object[] arrays = l.launch.arrays().clone();
    for (int a = 0; a < arrays.length; a++) arrays[a] = storage(arrays[a], sessions);
    Launch launch = new Launch(l.launch.template(), arrays, l.launch.params(), l.launch.accumulators(),
        l.launch.start(), l.launch.step(), l.launch.trips());
    String kernel = l.entry.where() + "#" + l.siteId;
    boolean ran;
    try {
      ran = runner.run(launch, kernel, List.of(l), sessions);
    } catch (RuntimeException e) {
      lost(kernel, List.of(l), e);
      return;
    }
    if (ran) {
      l.complete();
    } else {
      log.warnOnce("lost " + l.siteId,
          "could not run the loop at " + l.entry.where() + " on any executor; its results may be missing");
    }
  }

  /**
   * The array itself, or for a placeholder the array standing in for it (allocated on first use), which the
   * program never reads: {@code sessions} (null for none) need not give it back.
   */
  private Object storage(Object array, FlushSessions sessions) {
    if (!(array instanceof TempArray t)) return array;
    return temporaries.computeIfAbsent(t, temp -> {
      Object storage = temp.allocate();
      if (sessions != null) sessions.unread(storage);
      return storage;
    });
  }
}
