package io.looplift.apps;

import io.looplift.bridge.LoopBridge;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A pipeline that declines every loop offered, for a forked JVM with the bridge on its boot class path and
 * rewritten classes on its class path: with {@code rest} it also rests each site it is offered up to that run's
 * length ({@link LoopBridge#rest}), as the real pipeline does once its selection keeps a loop as bytecode.
 * {@code main(rest, program, args...)} runs {@code program} and then prints to stderr how many runs were offered.
 */
public final class RestingDispatcher implements LoopBridge.Dispatcher {
  private final boolean rest;
  private final AtomicInteger offered = new AtomicInteger();

  private RestingDispatcher(boolean rest) {
    this.rest = rest;
  }

  public static void main(String[] args) throws Exception {
    RestingDispatcher d = new RestingDispatcher(Boolean.parseBoolean(args[0]));
    LoopBridge.install(d);
    Class.forName(args[1]).getMethod("main", String[].class)
        .invoke(null, (Object) Arrays.copyOfRange(args, 2, args.length));
    System.err.println("offered " + d.offered.get());
  }

  @Override
  public int submit(int siteId, Object[] arrays, long[] scalars, int start, int limit) {
    offered.incrementAndGet();
    if (rest) LoopBridge.rest(siteId, scalars[scalars.length - 1]);
    return LoopBridge.DECLINED;
  }

  @Override
  public void ran(int siteId) {}

  @Override
  public void sync() {}

  @Override
  public void beginRegion(int regionId) {}

  @Override
  public Object temp(int length, int arrayType) {
    return null;
  }

  @Override
  public boolean endRegion() {
    return false;
  }

  @Override
  public void abortRegion() {}

  /** True: every run is declined and goes to the original loop, which initializes what it calls. */
  @Override
  public boolean initialized(Class<?> c) {
    return true;
  }

  @Override
  public void fallback(int siteId, String reason) {}

  @Override
  public Object field(Object obj, String owner, String name) {
    throw new IllegalStateException("no fields read here");
  }

  @Override
  public void tooShort(int siteId, Class<?> caller) {}
}
