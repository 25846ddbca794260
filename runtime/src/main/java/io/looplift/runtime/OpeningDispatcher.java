package io.looplift.runtime;

import io.looplift.bridge.LoopBridge;
import io.looplift.profiler.Profiler;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The dispatcher of a pipeline whose executors and scheduler open when the first loop is offered
 * ({@link #submit}, {@link #beginRegion} or {@link #field}) rather than at start-up. Until then nothing can be pending, so
 * {@link #sync}, {@link #endRegion} and {@link #abortRegion} have nothing to do and open nothing. If
 * opening fails, every loop runs as bytecode, as with no pipeline at all. Never throws; thread-safe.
 *
 * <p>When the original bytecode is a candidate of every loop ({@code executor=auto}), the loops offered before the
 * pipeline is open run as bytecode, as the selection would have run their first launches anyway. Opening loads and
 * links a few hundred classes: 140-250 ms of a 2-core machine's program thread before a 800 x 800 matrix product's
 * first column, which then waited for it; and on a background thread, the same time of the other core, which a
 * memory-bound loop running meanwhile lost 10% of its speed to. So, as one rents skis until the rent paid reaches
 * their price, the loops offered are timed ({@link LoopBridge#TIMED}) until together they have run as long as
 * opening costs ({@code openAfterNanos}); only then does the pipeline start opening, on a background thread. A
 * program whose offered loops run shorter than that pays nothing for the pipeline; one whose loops run longer
 * pays at most that much more than had the pipeline opened at once. A region still opens the pipeline on its own
 * thread.
 */
final class OpeningDispatcher implements LoopBridge.Dispatcher {
  private static final LoopBridge.Dispatcher FAILED = new LoopBridge.Dispatcher() {
    @Override
    public int submit(int siteId, Object[] arrays, long[] scalars, int start, int limit) {
      return LoopBridge.DECLINED;
    }

    @Override
    public void ran(int siteId) {}

    @Override
    public void sync() {}

    @Override
    public void beginRegion(int regionId) {}

    @Override
    public Object temp(int length, int arrayType) { return null; }

    @Override
    public boolean endRegion() { return false; }

    @Override
    public void abortRegion() {}

    @Override
    public boolean initialized(Class<?> c) { return false; }

    @Override
    public void fallback(int siteId, String reason) {}

    @Override
    public Object field(Object obj, String owner, String name) {
      throw new IllegalStateException("the executors could not be opened");
    }

    @Override
    public void tooShort(int siteId, Class<?> caller) {}
  };

  /** Why a loop offered while the pipeline opens in the background ran as bytecode. */
  static final String OPENING = "ran as bytecode while LoopLift opened its executors";
  /** Why a loop offered before the loops offered had run long enough to pay for opening the pipeline ran as bytecode. */
  static final String NOT_YET = "ran as bytecode: the loops offered so far ran too briefly to pay for opening the"
      + " executors";
  /**
   * What opening the pipeline costs the program (see the class comment), and so how long the loops offered run
   * as bytecode before it opens: the default of {@link Pipeline.Builder#openAfter}.
   */
  static final long OPENING_COST_NANOS = 150_000_000L;

  private final Supplier<LoopBridge.Dispatcher> opener;
  private final Predicate<Class<?>> initialized;
  private final ShortLoops shortLoops;
  private final Profiler profiler;
  private final Log log;
  private final boolean inBackground;
  private final long openAfterNanos;
  private final LongSupplier clock;
  private final AtomicBoolean opening = new AtomicBoolean();
  private volatile LoopBridge.Dispatcher opened;
  /** The time the loops offered have run as bytecode, timed, before the pipeline started opening. */
  private final AtomicLong timedNanos = new AtomicLong();
  private final ThreadLocal<Timing> timings = new ThreadLocal<>();
  private final FieldReader fields = new FieldReader();

  /** The run of a loop one thread was told to time, until it reports. */
  private static final class Timing {
    int siteId = -1;
    long start;
  }

  /**
   * {@code opener} builds the real dispatcher; it runs at most once, on the first thread that needs it.
   * Until then {@code initialized} answers {@link #initialized} and {@code profiler} records {@link #fallback};
   * {@code shortLoops} always answers {@link #tooShort}. With {@code inBackground}, {@link #submit} times the
   * loops offered until they have run {@code openAfterNanos} by {@code clock}, then opens it on a background
   * thread and declines until it is open.
   */
  OpeningDispatcher(Supplier<LoopBridge.Dispatcher> opener, Predicate<Class<?>> initialized, ShortLoops shortLoops,
      Profiler profiler, Log log, boolean inBackground, long openAfterNanos, LongSupplier clock) {
    this.opener = opener;
    this.inBackground = inBackground;
    this.openAfterNanos = openAfterNanos;
    this.clock = clock;
    this.initialized = initialized;
    this.shortLoops = shortLoops;
    this.profiler = profiler;
    this.log = log;
  }

  /** Opens the pipeline now if it is not open yet, and returns its dispatcher. */
  LoopBridge.Dispatcher open() {
    LoopBridge.Dispatcher d = opened;
    if (d != null) return d;
    synchronized (this) {
      if (opened == null) {
        try {
          opened = openAsAtStartUp();
        } catch (Throwable e) {
          log.warn("could not open the executors (" + e + "); loops run as they are");
          opened = FAILED;
        }
      }
      return opened;
    }
  }

  /**
   * The pipeline's dispatcher when it is open; otherwise null, after starting to open it on a background
   * thread the first time (see the class comment). Without {@code inBackground}, opens it now.
   */
  private LoopBridge.Dispatcher openedOrOpening() {
    LoopBridge.Dispatcher d = opened;
    if (d != null) return d;
    if (!inBackground) return open();
    if (opening.compareAndSet(false, true)) startOpening();
    return opened;
  }

  @SuppressWarnings("removal") // as in openAsAtStartUp: the new thread must not inherit the caller's frames
  private void startOpening() {
    try {
      java.security.AccessController.doPrivileged((java.security.PrivilegedAction<Void>) () -> {
        Thread t = new Thread(this::open, "looplift-open");
        t.setDaemon(true);
        t.setContextClassLoader(ClassLoader.getSystemClassLoader());
        t.start();
        return null;
      });
    } catch (Throwable e) {
      open();
    }
  }

  /**
   * Runs the opener as if at start-up: the threads it starts must not inherit the caller's context class
   * loader, nor (through the inherited access control context) the protection domains on the caller's
   * stack, or the executors' threads would keep the class loader of the first loop's class alive.
   */
  @SuppressWarnings("removal") // no other way to leave the caller's frames out of a new thread's context
  private LoopBridge.Dispatcher openAsAtStartUp() {
    Thread t = Thread.currentThread();
    ClassLoader caller = t.getContextClassLoader();
    t.setContextClassLoader(ClassLoader.getSystemClassLoader());
    try {
      return java.security.AccessController.doPrivileged(
          (java.security.PrivilegedAction<LoopBridge.Dispatcher>) opener::get);
    } finally {
      t.setContextClassLoader(caller);
    }
  }

  @Override
  public int submit(int siteId, Object[] arrays, long[] scalars, int start, int limit) {
    LoopBridge.Dispatcher d = opened;
    if (d == null && inBackground && !opening.get() && timedNanos.get() < openAfterNanos) {
      Timing t = timings.get();
      if (t == null) timings.set(t = new Timing());
      fallback(siteId, NOT_YET);
      t.siteId = siteId;
      t.start = clock.getAsLong();
      return LoopBridge.TIMED;
    }
    if (d == null) d = openedOrOpening();
    if (d != null) return d.submit(siteId, arrays, scalars, start, limit);
    fallback(siteId, OPENING);
    return LoopBridge.DECLINED;
  }

  /**
   * Adds the run of {@code siteId} that ends now to the time the loops offered have run, when this thread was
   * told to time it; a loop offered inside it replaced its timing, and only that one counts.
   */
  @Override
  public void ran(int siteId) {
    LoopBridge.Dispatcher d = opened;
    if (d != null) {
      d.ran(siteId);
      return;
    }
    Timing t = timings.get();
    if (t == null || t.siteId != siteId) return;
    t.siteId = -1;
    if (timedNanos.addAndGet(clock.getAsLong() - t.start) >= openAfterNanos) openedOrOpening();
  }

  @Override
  public void sync() {
    LoopBridge.Dispatcher d = opened;
    if (d != null) d.sync();
  }

  @Override
  public void beginRegion(int regionId) {
    open().beginRegion(regionId);
  }

  @Override
  public Object temp(int length, int arrayType) {
    return open().temp(length, arrayType);
  }

  @Override
  public boolean endRegion() {
    LoopBridge.Dispatcher d = opened;
    return d != null && d.endRegion();
  }

  @Override
  public void abortRegion() {
    LoopBridge.Dispatcher d = opened;
    if (d != null) d.abortRegion();
  }

  /** Answered without opening the pipeline. */
  @Override
  public boolean initialized(Class<?> c) {
    LoopBridge.Dispatcher d = opened;
    if (d != null) return d.initialized(c);
    try {
      return initialized.test(c);
    } catch (Throwable e) {
      return false;
    }
  }

  /** Recorded without opening the pipeline (a site's id is the profiler's). */
  @Override
  public void fallback(int siteId, String reason) {
    LoopBridge.Dispatcher d = opened;
    if (d != null) {
      d.fallback(siteId, reason);
      return;
    }
    try {
      profiler.fallback(siteId, reason);
    } catch (Throwable e) {
      log.debugOnce("fallback " + e, "internal error while falling back: " + e);
    }
  }

  /** Answered without opening the pipeline: a loop that only ever ran short never opened it. */
  @Override
  public void tooShort(int siteId, Class<?> caller) {
    shortLoops.tooShort(siteId, caller);
  }

  /**
   * Asked just before a loop is offered. Without {@code inBackground}, opens the pipeline, as {@link #submit}
   * would next; with it, reads the field and leaves opening to {@link #submit}.
   */
  @Override
  public Object field(Object obj, String owner, String name) throws Throwable {
    LoopBridge.Dispatcher d = opened;
    if (d == null && !inBackground) d = open();
    return d != null ? d.field(obj, owner, name) : fields.read(obj, owner, name);
  }
}
