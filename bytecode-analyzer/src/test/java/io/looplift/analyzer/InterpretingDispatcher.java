package io.looplift.analyzer;

import io.looplift.ir.LoopSite;
import io.looplift.ir.RegionSite;
import io.looplift.bridge.LoopBridge;
import io.looplift.ir.AffineIndex;
import io.looplift.ir.Evaluator;
import io.looplift.ir.Interpreter;
import io.looplift.ir.Load;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Node;
import io.looplift.ir.Nodes;
import io.looplift.ir.Reduction;
import io.looplift.ir.Store;
import java.lang.reflect.Array;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The pipeline behind the real {@link LoopBridge} in analyzer tests: it runs each submitted loop at once
 * with the IR interpreter after checking bounds, so analyzer tests need no agent. Inside a region it
 * records the loops and runs them at {@link #endRegion}, with the temporaries allocated only then. Installed
 * once per test JVM by {@link #install()}; its counters are static so that tests read them directly.
 */
final class InterpretingDispatcher implements LoopBridge.Dispatcher {
  public static final List<LoopSite> SITES = new CopyOnWriteArrayList<>();
  public static final List<RegionSite> REGIONS = new CopyOnWriteArrayList<>();
  public static int submitted;
  public static int syncs;
  /** Launches whose reductions ran split into chunks. */
  public static int split;
  public static int regionsCommitted;
  public static int regionsAborted;
  /** When set, {@link #endRegion} declines every region, so the original code runs. */
  public static boolean declineRegions;
  /** Each site {@link #tooShort} was told of, with the class told. */
  static final Map<Integer, Class<?>> TOO_SHORT = new ConcurrentHashMap<>();
  /** The classes {@link #initialized} says are initialized (a test adds them once the program initialized them). */
  public static final java.util.Set<Class<?>> INITIALIZED = java.util.concurrent.ConcurrentHashMap.newKeySet();

  /** A temporary of the current region: what {@link #temp} returns instead of an array. */
  private record Temp(int length, int type) {}

  /** A loop recorded in the current region. */
  private record Recorded(int siteId, Object[] arrays, long[] scalars, int start, int limit) {}

  private static List<Recorded> region;

  private InterpretingDispatcher() {}

  /** Puts this dispatcher behind {@link LoopBridge}, once per JVM; rewritten code then runs through it. */
  static void install() {
    LoopBridge.install(new InterpretingDispatcher());
  }

  @Override
  public boolean initialized(Class<?> c) {
    return INITIALIZED.contains(c);
  }

  @Override
  public void fallback(int siteId, String reason) {}

  /** Records the site and the class its short runs were counted in. */
  @Override
  public void tooShort(int siteId, Class<?> caller) {
    TOO_SHORT.put(siteId, caller);
  }

  /** Reads the field by reflection, as the real pipeline does (a field of {@code owner} or its superclasses). */
  @Override
  public Object field(Object obj, String owner, String name) throws ReflectiveOperationException {
    Class<?> c = obj.getClass();
    while (!c.getName().replace('.', '/').equals(owner)) c = c.getSuperclass();
    for (; c != null; c = c.getSuperclass()) {
      for (java.lang.reflect.Field f : c.getDeclaredFields()) {
        if (f.getName().equals(name) && !java.lang.reflect.Modifier.isStatic(f.getModifiers())) {
          f.setAccessible(true);
          return f.get(obj);
        }
      }
    }
    throw new NoSuchFieldException(owner + "." + name);
  }

  @Override
  public int submit(int siteId, Object[] arrays, long[] scalars, int start, int limit) {
    if (timeOriginals) {
      timing = siteId;
      return LoopBridge.TIMED;
    }
    return submitLoop(siteId, arrays, scalars, start, limit) ? LoopBridge.TAKEN : LoopBridge.DECLINED;
  }

  @Override
  public void sync() { syncs++; }

  /** When set, every loop is declined with a request to time its original run. */
  public static boolean timeOriginals;
  /** The site asked to be timed last, or -1. */
  public static int timing = -1;
  /** The sites whose original runs reported completion, in order. */
  public static final List<Integer> RAN = new CopyOnWriteArrayList<>();

  @Override
  public void ran(int siteId) {
    RAN.add(siteId);
  }

  @Override
  public void beginRegion(int regionId) { begin(); }

  @Override
  public Object temp(int length, int type) { return new Temp(length, type); }

  @Override
  public boolean endRegion() { return end(); }

  @Override
  public void abortRegion() { abort(); }

  private static void begin() {
    region = new java.util.ArrayList<>();
  }

  private static boolean end() {
    List<Recorded> loops = region;
    region = null;
    if (loops == null || declineRegions) {
      regionsAborted++;
      return false;
    }
    Map<Temp, Object> arrays = new java.util.IdentityHashMap<>();
    for (Recorded r : loops) {
      for (int a = 0; a < r.arrays().length; a++) {
        if (r.arrays()[a] instanceof Temp t) {
          if (t.length() < 0) {
            regionsAborted++;
            return false;
          }
          r.arrays()[a] = arrays.computeIfAbsent(t, k -> newArray(k.type(), k.length()));
        }
      }
    }
    for (Recorded r : loops) {
      if (!check(r.siteId(), r.arrays(), r.scalars(), r.start(), r.limit())) {
        regionsAborted++;
        return false;
      }
    }
    for (Recorded r : loops) run(r.siteId(), r.arrays(), r.scalars(), r.start(), r.limit());
    regionsCommitted++;
    return true;
  }

  private static void abort() {
    if (region != null) regionsAborted++;
    region = null;
  }

  private static Object newArray(int type, int length) {
    switch (type) {
      case org.objectweb.asm.Opcodes.T_BOOLEAN: return new boolean[length];
      case org.objectweb.asm.Opcodes.T_BYTE: return new byte[length];
      case org.objectweb.asm.Opcodes.T_CHAR: return new char[length];
      case org.objectweb.asm.Opcodes.T_SHORT: return new short[length];
      case org.objectweb.asm.Opcodes.T_INT: return new int[length];
      case org.objectweb.asm.Opcodes.T_LONG: return new long[length];
      case org.objectweb.asm.Opcodes.T_FLOAT: return new float[length];
      default: return new double[length];
    }
  }

  private static boolean submitLoop(int siteId, Object[] arrays, long[] scalars, int start, int limit) {
    if (region != null) {
      LoopSite site = SITES.get(siteId);
      long trips = site.shape().trips(start, limit);
      if (trips < 0 || !site.template().reductions().isEmpty()) return false;
      region.add(new Recorded(siteId, arrays, scalars, start, limit));
      scalars[scalars.length - 1] = (int) (start + trips * site.shape().step());
      return true;
    }
    if (!SITES.get(siteId).template().isFlat()) return runNest(siteId, arrays, scalars, start, limit);
    if (!check(siteId, arrays, scalars, start, limit)) return false;
    run(siteId, arrays, scalars, start, limit);
    return true;
  }

  /** Loop nests submitted, run to completion by the reference interpreter. */
  public static int nests;

  /**
   * Runs a nest on copies of its arrays and copies the results back only when nothing threw: a stand-in for
   * the runtime's guards (a launch that would fail part-way runs as the original loop, which then fails as
   * Java does).
   */
  private static boolean runNest(int siteId, Object[] arrays, long[] scalars, int start, int limit) {
    LoopSite site = SITES.get(siteId);
    LoopTemplate t = site.template();
    long trips = site.shape().trips(start, limit);
    if (trips < 0) return false;
    int np = t.params().size();
    long[] params = java.util.Arrays.copyOf(scalars, np);
    long[] accs = java.util.Arrays.copyOfRange(scalars, np, np + t.accumulators().size());
    Object[] copies = RewriteRoundTripTest.deepCopy(arrays);
    try {
      Interpreter.run(t, copies, params, accs, start, site.shape().step(), (int) trips);
    } catch (RuntimeException e) {
      return false;
    }
    for (int a = 0; a < arrays.length; a++) copyBack(copies[a], arrays[a]);
    System.arraycopy(accs, 0, scalars, np, accs.length);
    scalars[scalars.length - 1] = (int) (start + trips * site.shape().step());
    submitted++;
    nests++;
    return true;
  }

  private static void copyBack(Object from, Object to) {
    if (to instanceof Object[] rows) {
      for (int r = 0; r < rows.length; r++) copyBack(((Object[]) from)[r], rows[r]);
    } else if (to != null) {
      System.arraycopy(from, 0, to, 0, Array.getLength(to));
    }
  }

  private static boolean check(int siteId, Object[] arrays, long[] scalars, int start, int limit) {
    LoopSite site = SITES.get(siteId);
    LoopTemplate t = site.template();
    long trips = site.shape().trips(start, limit);
    if (trips < 0) return false;
    int np = t.params().size();
    long[] params = java.util.Arrays.copyOf(scalars, np);
    long[] accs = java.util.Arrays.copyOfRange(scalars, np, np + t.accumulators().size());
    Interpreter guard = new Interpreter(arrays, params, accs);
    for (int a = 0; a < arrays.length; a++) if (arrays[a] == null) return false;
    for (Node n : Nodes.postOrder(t.roots())) if (n instanceof Load l && !inBounds(site, arrays[l.array()], l.index(), guard, start, trips)) return false;
    for (Store s : t.stores()) if (!inBounds(site, arrays[s.array()], s.index(), guard, start, trips)) return false;
    return true;
  }

  private static void run(int siteId, Object[] arrays, long[] scalars, int start, int limit) {
    LoopSite site = SITES.get(siteId);
    LoopTemplate t = site.template();
    long trips = site.shape().trips(start, limit);
    int np = t.params().size();
    long[] params = java.util.Arrays.copyOf(scalars, np);
    long[] accs = java.util.Arrays.copyOfRange(scalars, np, np + t.accumulators().size());
    if (!t.reductions().isEmpty() && t.isParallel(false)) {
      splitReductions(t, site, arrays, params, accs, start, trips);
      t = new LoopTemplate(t.arrays(), t.params(), List.of(), t.stores(), List.of());
    }
    for (long k = 0; k < trips; k++) {
      int i = (int) (start + k * site.shape().step());
      Map<Node, Long> v = new Interpreter(arrays, params, accs).evaluate(t.roots(), i);
      for (Store s : t.stores()) {
        if (v.get(s.predicate()) != 0) Evaluator.store(arrays[s.array()], s.elementType(), (int) (long) v.get(s.index()), v.get(s.value()));
      }
      long[] next = accs.clone();
      for (Reduction r : t.reductions()) next[r.acc()] = v.get(r.update());
      System.arraycopy(next, 0, accs, 0, accs.length);
    }
    System.arraycopy(accs, 0, scalars, np, accs.length);
    scalars[scalars.length - 1] = (int) (start + trips * site.shape().step());
    submitted++;
  }

  private static boolean inBounds(LoopSite site, Object array, Node index, Interpreter guard, int start, long trips) {
    AffineIndex ai = AffineIndex.of(index);
    long off = (int) guard.evaluate(ai.offset(), 0);
    int len = Array.getLength(array);
    for (long k : new long[] {0, trips - 1}) {
      if (trips == 0) break;
      long v = ai.scale() * (start + k * site.shape().step()) + off;
      if (v < 0 || v >= len) return false;
    }
    return true;
  }

  /**
   * Computes splittable reductions the way a parallel executor does: three chunks, each from the
   * operator's identity, combined in order starting from the initial value. Equal results to the plain
   * loop show the recognized operator and element are exact.
   */
  private static void splitReductions(LoopTemplate t, LoopSite site, Object[] arrays, long[] params, long[] accs,
      int start, long trips) {
    long[] result = accs.clone();
    long chunk = (trips + 2) / 3;
    for (long from = 0; from < trips; from += chunk) {
      long[] partial = new long[accs.length];
      for (Reduction r : t.reductions()) partial[r.acc()] = r.op().identity(r.type());
      for (long k = from; k < Math.min(trips, from + chunk); k++) {
        int i = (int) (start + k * site.shape().step());
        Interpreter in = new Interpreter(arrays, params, partial);
        for (Reduction r : t.reductions()) {
          partial[r.acc()] = r.op().combine(r.type(), partial[r.acc()], in.evaluate(r.element(), i));
        }
      }
      for (Reduction r : t.reductions()) result[r.acc()] = r.op().combine(r.type(), result[r.acc()], partial[r.acc()]);
    }
    System.arraycopy(result, 0, accs, 0, accs.length);
    split++;
  }

}
