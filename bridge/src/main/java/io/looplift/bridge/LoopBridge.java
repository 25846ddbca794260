package io.looplift.bridge;

import java.lang.invoke.CallSite;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Entry points that rewritten bytecode calls. Lives on the bootstrap class path so that classes of any
 * class loader can reach it; has no dependencies. The pipeline behind it is installed once at start-up;
 * until then (and if it is never installed) every call asks the caller to run its original loop.
 */
public final class LoopBridge {
  /** The pipeline behind the bridge. Implementations never throw. */
  public interface Dispatcher {
    /**
     * Takes loop site {@code siteId} with its arguments: {@link #TAKEN} when the pipeline has taken the work
     * (it will be visible at the next {@link #sync()}), {@link #DECLINED} or {@link #TIMED} when the caller
     * must run the original loop. See {@link LoopBridge#submit} for the layout of {@code scalars}.
     */
    int submit(int siteId, Object[] arrays, long[] scalars, int start, int limit);

    /** Makes every deferred result of the calling thread visible. */
    void sync();

    /** See {@link LoopBridge#ran}. */
    void ran(int siteId);

    /** See {@link LoopBridge#beginRegion}. */
    void beginRegion(int regionId);

    /** See {@link LoopBridge#temp}. */
    Object temp(int length, int arrayType);

    /** See {@link LoopBridge#endRegion}. */
    boolean endRegion();

    /** See {@link LoopBridge#abortRegion}. */
    void abortRegion();

    /** Whether class {@code c} is known to be initialized (see {@link LoopBridge#initialized}). */
    boolean initialized(Class<?> c);

    /** Records that loop site {@code siteId} runs as bytecode this time, for {@code reason}. */
    void fallback(int siteId, String reason);

    /** See {@link LoopBridge#field}; the one entry point that throws. */
    Object field(Object obj, String owner, String name) throws Throwable;

    /**
     * Says that loop site {@code siteId}, of class {@code caller}, has run {@link LoopBridge#SHORT_RUNS_TOLD}
     * times too short to offload (see {@link LoopBridge#shortRun}). Called once per site: on the thread that
     * made the count, or, for a class file of Java 7 or later, on {@code looplift-short-runs} soon after.
     */
    void tooShort(int siteId, Class<?> caller);
  }

  /** What {@link #submit} returns when the caller must run its original loop. */
  public static final int DECLINED = 0;
  /** What {@link #submit} returns when the pipeline has taken the loop. */
  public static final int TAKEN = 1;
  /**
   * What {@link #submit} returns when the caller must run its original loop and then call {@link #ran}: the
   * pipeline times the original loop, one of the ways it may choose to run the loop.
   */
  public static final int TIMED = 2;

  // The names and descriptors rewritten code calls, as compile-time constants: javac copies them into the
  // rewriter, which therefore never loads this class. BridgeDescriptorsTest checks them against the methods.
  /** The descriptor of a bootstrap method that links an {@code invokedynamic} of one loop site, by its id. */
  private static final String SITE_BOOTSTRAP_DESC = "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;"
      + "Ljava/lang/invoke/MethodType;I)Ljava/lang/invoke/CallSite;";
  /** This class's internal name. */
  public static final String INTERNAL_NAME = "io/looplift/bridge/LoopBridge";
  public static final String SUBMIT = "submit";
  public static final String SUBMIT_DESC = "(I[Ljava/lang/Object;[JII)I";
  public static final String RAN = "ran";
  public static final String RAN_DESC = "(I)V";
  public static final String SYNC = "sync";
  public static final String SYNC_DESC = "()V";
  public static final String BEGIN_REGION = "beginRegion";
  public static final String BEGIN_REGION_DESC = "(I)V";
  public static final String TEMP = "temp";
  public static final String TEMP_DESC = "(II)Ljava/lang/Object;";
  public static final String END_REGION = "endRegion";
  public static final String END_REGION_DESC = "()Z";
  public static final String ABORT_REGION = "abortRegion";
  public static final String ABORT_REGION_DESC = "()V";
  public static final String INITIALIZED = "initialized";
  public static final String INITIALIZED_DESC = "(ILjava/lang/Class;)Z";
  public static final String INITIALIZED_CHECK = "initializedCheck";
  public static final String INITIALIZED_CHECK_DESC = "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;"
      + "Ljava/lang/invoke/MethodType;ILjava/lang/Class;)Ljava/lang/invoke/CallSite;";
  /** The name and type of the {@code invokedynamic} that {@link #initializedCheck} links. */
  public static final String CLASS_INITIALIZED = "classInitialized";
  public static final String CLASS_INITIALIZED_TYPE = "()Z";
  public static final String DISPATCHES = "dispatches";
  public static final String DISPATCHES_DESC = "(ILjava/lang/Object;Ljava/lang/String;Ljava/lang/String;)Z";
  public static final String FIELD = "field";
  public static final String FIELD_DESC = "(Ljava/lang/Object;Ljava/lang/String;Ljava/lang/String;)Ljava/lang/Object;";
  public static final String SHORT_RUN = "shortRun";
  public static final String SHORT_RUN_DESC = "(I)V";
  public static final String SHORT_RUN_COUNTER = "shortRunCounter";
  public static final String SHORT_RUN_COUNTER_DESC = SITE_BOOTSTRAP_DESC;
  /** The type of the {@code invokedynamic} ({@link #SHORT_RUN} by name) that {@link #shortRunCounter} links. */
  public static final String SHORT_RUN_TYPE = "()V";
  public static final String REST_GATE = "restGate";
  public static final String REST_GATE_DESC = SITE_BOOTSTRAP_DESC;
  /** The names and types of the three {@code invokedynamic}s that {@link #restGate} links. */
  public static final String OFFERING = "offering";
  public static final String OFFERING_TYPE = "()Z";
  public static final String RESTED_UP_TO = "restedUpTo";
  public static final String RESTED_UP_TO_TYPE = "()J";
  public static final String RAN_LONGER = "ranLongerThanRested";
  public static final String RAN_LONGER_TYPE = "()V";
  public static final String SITE_SWITCH = "siteSwitch";
  public static final String SITE_SWITCH_DESC = SITE_BOOTSTRAP_DESC;
  /** The name and type of the {@code invokedynamic} that {@link #siteSwitch} links. */
  public static final String SWITCH_NAME = "preambleOn";
  public static final String SWITCH_TYPE = "()Z";
  /**
   * How many short runs of a site are counted before the pipeline is told. Putting a loop back costs
   * the compiled code of the methods it is in (tens to hundreds of milliseconds of JIT work, while they run
   * interpreted again), which saves a few nanoseconds a run: only a loop that has run this often is likely
   * to run often enough again to repay it. (At 2^16, a Smile k-means run put back a loop of its tree search
   * and took 150-250 ms longer.) A hot inner loop gets there in well under a second.
   */
  public static final int SHORT_RUNS_TOLD = 1 << 20;
  /**
   * How often, in milliseconds, the counts of class files of Java 7 and later are read for those that made
   * {@link #SHORT_RUNS_TOLD}: a loop is told of at most this long after.
   */
  public static final long SHORT_RUNS_LOOK_MILLIS = 100;

  private static volatile Dispatcher dispatcher;
  private static final ShortRuns SHORT_RUNS = new ShortRuns((caller, siteId) -> tooShort(siteId, caller));
  private static final ShortRunWatch SHORT_RUN_WATCH = new ShortRunWatch(SHORT_RUNS);
  private static final SiteSwitches SWITCHES = new SiteSwitches();
  private static final RestGates REST_GATES = new RestGates();

  private LoopBridge() {}

  /**
   * Offers a loop to the pipeline.
   *
   * @param siteId the site registered when the class was rewritten
   * @param arrays the loop's arrays, in the site's order
   * @param scalars the site's parameters, then the accumulators' initial values, then the run's length as the
   *     preamble measures it (what {@link #rest} takes; 0 where it is not known), as raw bits (ints
   *     sign-extended, floats and doubles as raw bits). When the loop is taken the accumulator slots hold their
   *     final values and the last slot the induction variable's value after the loop.
   * @param start the induction variable's value on entry
   * @param limit the value the exit test compares it with
   * @return {@link #TAKEN}, or {@link #DECLINED} or {@link #TIMED} when the caller must run the original loop
   */
  public static int submit(int siteId, Object[] arrays, long[] scalars, int start, int limit) {
    SHORT_RUNS.ranLong(siteId);
    Dispatcher d = dispatcher;
    return d == null ? DECLINED : d.submit(siteId, arrays, scalars, start, limit);
  }

  /**
   * Says that the original loop of site {@code siteId}, which {@link #submit} returned {@link #TIMED} for on
   * this thread, has just completed normally.
   */
  public static void ran(int siteId) {
    Dispatcher d = dispatcher;
    if (d != null) d.ran(siteId);
  }

  /** Makes the calling thread's deferred results visible; called before every read point. */
  public static void sync() {
    Dispatcher d = dispatcher;
    if (d != null) d.sync();
  }

  /**
   * Starts the fast path of region {@code regionId} on the calling thread: until {@link #endRegion} or
   * {@link #abortRegion}, {@link #submit} only records its loops, whose arrays may include placeholders
   * from {@link #temp}.
   */
  public static void beginRegion(int regionId) {
    Dispatcher d = dispatcher;
    if (d != null) d.beginRegion(regionId);
  }

  /**
   * A placeholder for a temporary array of the current region, of {@code length} elements of JVM array type
   * code {@code arrayType} (as {@code newarray} takes it); null when there is no pipeline.
   */
  public static Object temp(int length, int arrayType) {
    Dispatcher d = dispatcher;
    return d == null ? null : d.temp(length, arrayType);
  }

  /**
   * Ends the current region: true when the pipeline took all its loops (checked together), false when the
   * caller must run the region's original code instead; either way the region is over.
   */
  public static boolean endRegion() {
    Dispatcher d = dispatcher;
    return d != null && d.endRegion();
  }

  /** Abandons the current region, if any; its recorded loops are dropped. */
  public static void abortRegion() {
    Dispatcher d = dispatcher;
    if (d != null) d.abortRegion();
  }

  /**
   * Whether class {@code c} is known to be initialized, asked before loop site {@code siteId} is offered. A loop
   * that inlines a static method of a class with a static initializer is offloaded only then: offloaded, the
   * call that would initialize the class is never made, so before it has been made once the original loop
   * runs (and the site's report says why). False without a pipeline.
   */
  public static boolean initialized(int siteId, Class<?> c) {
    Dispatcher d = dispatcher;
    if (d == null) return false;
    if (d.initialized(c)) return true;
    d.fallback(siteId, "calls a method of " + c.getName() + ", which Java has not initialized yet; the original"
        + " loop runs until it has");
    return false;
  }

  /**
   * The bootstrap method of the {@code invokedynamic} ({@link #CLASS_INITIALIZED}, {@link #CLASS_INITIALIZED_TYPE})
   * that asks {@link #initialized} for class {@code c} before loop site {@code siteId} is offered, in class
   * files of Java 7 and later: once it has answered true it is the constant true, which HotSpot compiles as
   * nothing.
   */
  public static CallSite initializedCheck(MethodHandles.Lookup caller, String name, MethodType type, int siteId,
      Class<?> c) {
    return InitializedCheck.of(siteId, c);
  }

  /**
   * Whether calling {@code method} (name and descriptor, e.g. {@code get(I)D}) on {@code obj} runs its
   * declaration in class {@code holder} (a binary name, {@code a.b.C}), asked before loop site {@code siteId},
   * which inlines that declaration, is offered: on an object of a class that overrides it, the original loop
   * runs (and the site's report says why).
   *
   * @throws NullPointerException when {@code obj} is null, as the call would (the original loop then runs)
   */
  public static boolean dispatches(int siteId, Object obj, String holder, String method) {
    Class<?> c = obj.getClass();
    if (VirtualTargets.runs(c, holder, method)) return true;
    Dispatcher d = dispatcher;
    if (d != null) {
      d.fallback(siteId, "calls " + method + " on a " + c.getName() + ", which does not run the method of "
          + holder + " that was inlined");
    }
    return false;
  }

  /**
   * The value of instance field {@code name} of {@code obj}, declared in class {@code owner} (internal name) or
   * one of its superclasses, primitives boxed: what {@code getfield} reads, for a loop that inlines a method
   * reading a field its own class cannot name. Called before the loop, in code whose exception handler runs
   * the original loop, which then reads the field itself.
   *
   * @throws NullPointerException when {@code obj} is null, as {@code getfield} would
   * @throws IllegalStateException without a pipeline; or whatever reading the field failed with
   */
  public static Object field(Object obj, String owner, String name) throws Throwable {
    if (obj == null) throw new NullPointerException(name);
    Dispatcher d = dispatcher;
    if (d == null) throw new IllegalStateException("no pipeline");
    return d.field(obj, owner, name);
  }

  /**
   * Counts a run of loop site {@code siteId} that its preamble found too short to offload ({@code min.length})
   * and sent to the original loop without asking the pipeline. The {@link #SHORT_RUNS_TOLD}th is told to the
   * pipeline, with the calling class, which may then rewrite that class again with the loop as it was: a
   * loop that only ever runs short would otherwise pay this and its preamble on every run. A site that has
   * run long enough to be offered ({@link #submit}) is no longer counted. Class files of Java 7 and later
   * count through {@link #shortRunCounter} instead.
   */
  public static void shortRun(int siteId) {
    if (SHORT_RUNS.count(siteId)) {
      // Once per site: the walker is made here rather than when this class loads.
      tooShort(siteId, StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE).getCallerClass());
    }
  }

  private static void tooShort(int siteId, Class<?> caller) {
    Dispatcher d = dispatcher;
    if (d != null) d.tooShort(siteId, caller);
  }

  /**
   * The bootstrap method of the {@code invokedynamic} ({@link #SHORT_RUN}, {@link #SHORT_RUN_TYPE}) that counts
   * a short run of a loop in class files of Java 7 and later: an increment until the site first runs long
   * enough to be offered, nothing from then on, which HotSpot then compiles as nothing. A daemon thread,
   * {@code looplift-short-runs}, started here once, tells the pipeline of the sites whose count made
   * {@link #SHORT_RUNS_TOLD}, as {@link #shortRun(int)} does at once.
   */
  public static CallSite shortRunCounter(MethodHandles.Lookup caller, String name, MethodType type, int siteId) {
    SHORT_RUN_WATCH.start();
    return SHORT_RUNS.counter(siteId, caller.lookupClass());
  }

  /**
   * The bootstrap method of the {@code invokedynamic}s that open the path of a loop's run long enough to be
   * offered: {@link #OFFERING} ({@link #OFFERING_TYPE}), whether its site offers such runs, true until it rests
   * some ({@link #rest}); {@link #RESTED_UP_TO} ({@link #RESTED_UP_TO_TYPE}), how long the runs it rests are,
   * which go to the original loop unoffered; and {@link #RAN_LONGER} ({@link #RAN_LONGER_TYPE}), made by a run
   * longer than those, which offers the site's runs again. HotSpot compiles the first two as constants, and a
   * call site no run has linked yet as a return to the interpreter: the third is a call only once a run made it,
   * or it would be a call on the way into the original loop. A method
   * compiled while its loops have only run short, or rest, then has none of the calls of the path that offers
   * them (the class checks, {@link #submit}), around which C2 kept a nest's arrays on the stack, reloading them
   * at each element of its inner loop (ojAlgo's matrix product, its selection settled on the original
   * bytecode: 62-69 ms against 47). The first long run links it; the method is compiled again with the path.
   */
  public static CallSite restGate(MethodHandles.Lookup caller, String name, MethodType type, int siteId) {
    if (type.returnType() == boolean.class) return REST_GATES.offering(siteId);
    if (type.returnType() == long.class) return REST_GATES.restedUpTo(siteId);
    return REST_GATES.opener(siteId);
  }

  /**
   * Rests the runs of loop site {@code siteId} no longer than {@code length} (as its preamble measures them):
   * they go to its original loop without being offered, as a loop shorter than {@code min.length} does, until
   * a longer run offers them again. False when the site has no gate (its class file predates
   * {@code invokedynamic}, or none of its runs was long yet), which then changes nothing.
   */
  public static boolean rest(int siteId, long length) {
    return REST_GATES.rest(siteId, length);
  }

  /** Offers the runs of loop site {@code siteId} again, whatever their length: its rest is over. */
  public static void offerAgain(int siteId) {
    REST_GATES.open(siteId);
  }

  /**
   * The bootstrap method of the {@code invokedynamic} ({@link #SWITCH_NAME}, {@link #SWITCH_TYPE}) that opens
   * a loop's preamble in class files of Java 7 and later: true while the preamble is to run, false once
   * {@link #switchOff} put the loop back as it was, the original loop then running straight away.
   */
  public static CallSite siteSwitch(MethodHandles.Lookup caller, String name, MethodType type, int siteId) {
    return SWITCHES.of(siteId);
  }

  /**
   * Puts loop site {@code siteId} back as it was without rewriting its class: its preamble's switch turns
   * false, and HotSpot compiles the methods it is in again without it. False when the site has no switch
   * (its class file predates {@code invokedynamic}, or it never ran), which then changes nothing.
   */
  public static boolean switchOff(int siteId) {
    return SWITCHES.off(siteId);
  }

  /**
   * Whether a preamble of loop site {@code siteId} has run in this JVM: its switch is linked on the first run.
   * False for a site whose class file predates {@code invokedynamic}, which has no switch.
   */
  public static boolean preambleRan(int siteId) {
    return SWITCHES.asked(siteId);
  }

  /** Installs the pipeline; a second call is ignored. */
  public static synchronized void install(Dispatcher d) {
    if (dispatcher == null) dispatcher = d;
  }
}
