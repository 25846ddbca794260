package io.looplift.runtime;

import io.looplift.bridge.LoopBridge;
import io.looplift.profiler.Profiler;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The dispatcher of a pipeline whose executors and scheduler open when the first loop is offered
 * ({@link #submit}, {@link #beginRegion} or {@link #field}) rather than at start-up. Until then nothing can be pending, so
 * {@link #sync}, {@link #endRegion} and {@link #abortRegion} have nothing to do and open nothing. If
 * opening fails, every loop runs as bytecode, as with no pipeline at all. Never throws; thread-safe.
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

  private final Supplier<LoopBridge.Dispatcher> opener;
  private final Predicate<Class<?>> initialized;
  private final ShortLoops shortLoops;
  private final Profiler profiler;
  private final Log log;
  private volatile LoopBridge.Dispatcher opened;

  /**
   * {@code opener} builds the real dispatcher; it runs at most once, on the first thread that needs it.
   * Until then {@code initialized} answers {@link #initialized} and {@code profiler} records {@link #fallback};
   * {@code shortLoops} always answers {@link #tooShort}.
   */
  OpeningDispatcher(Supplier<LoopBridge.Dispatcher> opener, Predicate<Class<?>> initialized, ShortLoops shortLoops,
      Profiler profiler, Log log) {
    this.opener = opener;
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
    return open().submit(siteId, arrays, scalars, start, limit);
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

  /** Asked just before a loop is offered: opens the pipeline, as {@link #submit} would next. */
  @Override
  public Object field(Object obj, String owner, String name) throws Throwable {
    return open().field(obj, owner, name);
  }
}
