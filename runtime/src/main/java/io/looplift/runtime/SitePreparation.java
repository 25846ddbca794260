package io.looplift.runtime;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Prepares each loop site once, on a background thread, before its launches are offloaded: what a site's first
 * launch would otherwise do on the program thread (its selection read from the store, its guards compiled,
 * its jvm kernel generated) while the program waited. Until a site is prepared its launches run as bytecode,
 * as the selection would have run its first launches anyway ({@code executor=auto}). On a 2-core machine the
 * first site of a program took 100-150 ms on the program thread, and each further site a few milliseconds.
 * Thread-safe.
 */
final class SitePreparation {
  /** Why a launch ran as bytecode while its site was prepared. */
  static final String PREPARING = "ran as bytecode while LoopLift prepared this loop";

  private enum State { PREPARING, READY }

  private final Map<Integer, State> sites = new ConcurrentHashMap<>();
  private final ExecutorService thread;
  private final Log log;

  /**
   * Starts the preparing thread now: created on the thread that opens the pipeline, it inherits nothing of a
   * program thread's context (see {@link OpeningDispatcher}).
   */
  SitePreparation(Log log) {
    this.log = log;
    ThreadPoolExecutor t = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
      Thread d = new Thread(r, "looplift-prepare");
      d.setDaemon(true);
      d.setContextClassLoader(ClassLoader.getSystemClassLoader());
      return d;
    });
    t.prestartCoreThread();
    this.thread = t;
  }

  /**
   * True when site {@code siteId} is prepared; otherwise false, after handing {@code prepare} to the preparing
   * thread the first time. A preparation that fails leaves the site prepared: its launch then does what failed
   * itself, and declines as it would have.
   */
  boolean ready(int siteId, Runnable prepare) {
    State s = sites.get(siteId);
    if (s == State.READY) return true;
    if (s != null || sites.putIfAbsent(siteId, State.PREPARING) != null) return false;
    try {
      thread.execute(() -> {
        try {
          prepare.run();
        } catch (Throwable e) {
          log.debugOnce("prepare " + e, "internal error while preparing loop site " + siteId + ": " + e);
        } finally {
          sites.put(siteId, State.READY);
        }
      });
    } catch (RejectedExecutionException e) {
      sites.put(siteId, State.READY);
    }
    return false;
  }
}
