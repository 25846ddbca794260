package io.looplift.runtime;

import io.looplift.bridge.LoopBridge;
import io.looplift.profiler.Profiler;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The dispatcher of a pipeline whose executors and scheduler open when the first loop is offered
 * ({@link #submit}, {@link #beginRegion} or {@link #field}) rather than at start-up. Until then nothing can be pending, so
 * {@link #sync}, {@link #endRegion} and {@link #abortRegion} have nothing to do and open nothing. If
 * opening fails, every loop runs as bytecode, as with no pipeline at all. Never throws; thread-safe.
 *
 * <p>When the original bytecode is a candidate of every loop ({@code executor=auto}), a loop offered before the
 * pipeline is open starts opening it on a background thread and runs as bytecode meanwhile, as the selection
 * would have run its first launches anyway: opening loads and links a few hundred classes, 140-250 ms of a
 * 2-core machine's program thread before a 800 x 800 matrix product's first column, which then waited for it.
 * A region still opens the pipeline on its own thread.
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

  private final Supplier<LoopBridge.Dispatcher> opener;
  private final Predicate<Class<?>> initialized;
  private final ShortLoops shortLoops;
  private final Profiler profiler;
  private final Log log;
  private final boolean inBackground;
  private final AtomicBoolean opening = new AtomicBoolean();
  private volatile LoopBridge.Dispatcher opened;

  /**
   * {@code opener} builds the real dispatcher; it runs at most once, on the first thread that needs it.
   * Until then {@code initialized} answers {@link #initialized} and {@code profiler} records {@link #fallback};
   * {@code shortLoops} always answers {@link #tooShort}. With {@code inBackground}, {@link #submit} and
   * {@link #field} open it on a background thread and decline until it is open.
   */
  OpeningDispatcher(Supplier<LoopBridge.Dispatcher> opener, Predicate<Class<?>> initialized, ShortLoops shortLoops,
      Profiler profiler, Log log, boolean inBackground) {
    this.opener = opener;
    this.inBackground = inBackground;
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
    LoopBridge.Dispatcher d = openedOrOpening();
    if (d != null) return d.submit(siteId, arrays, scalars, start, limit);
    fallback(siteId, OPENING);
    return LoopBridge.DECLINED;
  }

  @Override
  public void ran(int siteId) {
    LoopBridge.Dispatcher d = opened;
    if (d != null) d.ran(siteId);
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
   * Asked just before a loop is offered: opens the pipeline, as {@link #submit} would next; while it opens in the
   * background, throws, and the caller runs the original loop.
   */
  @Override
  public Object field(Object obj, String owner, String name) throws Throwable {
    LoopBridge.Dispatcher d = openedOrOpening();
    if (d == null) throw new IllegalStateException(OPENING);
    return d.field(obj, owner, name);
  }
}
