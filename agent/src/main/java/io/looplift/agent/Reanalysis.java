package io.looplift.agent;

import io.looplift.analyzer.Implementors;
import io.looplift.ir.SiteRegistry;
import io.looplift.runtime.Log;
import java.lang.instrument.Instrumentation;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;

/**
 * Rewrites a class again once an implementation of an abstract method its loops call has loaded: the
 * analyzer rejected those loops for want of one ({@link Implementors}) and now inlines it, under a guard.
 * Retransformation, on a daemon thread, hands the transformer the class's original bytes; a method running
 * at that moment keeps its old code until it is called again. Thread-safe; never throws.
 */
final class Reanalysis {
  private final Implementors implementors;
  private final Instrumentation inst;
  private final SiteRegistry sites;
  private final Log log;
  private final ExecutorService thread = Executors.newSingleThreadExecutor(task -> {
    Thread t = new Thread(task, "looplift-reanalysis");
    t.setDaemon(true);
    return t;
  });

  Reanalysis(Implementors implementors, Instrumentation inst, SiteRegistry sites, Log log) {
    this.implementors = implementors;
    this.inst = inst;
    this.sites = sites;
    this.log = log;
  }

  /** Learns from a class about to be defined by {@code loader}; schedules the classes it completes. */
  void classLoading(byte[] classfile, ClassLoader loader) {
    List<Implementors.Caller> waiting = implementors.classLoaded(classfile, loader);
    if (waiting.isEmpty()) return;
    try {
      thread.execute(() -> waiting.forEach(this::rewriteAgain));
    } catch (RejectedExecutionException e) {
      // Shutting down: the loops stay as they are.
    }
  }

  private void rewriteAgain(Implementors.Caller caller) {
    String name = caller.className().replace('/', '.');
    try {
      ClassLoader loader = caller.loader().get();
      if (loader == null) return; // unloaded with the class
      Class<?> c = Class.forName(name, false, loader);
      if (!inst.isModifiableClass(c)) return;
      sites.rewritingAgain(c.getName());
      inst.retransformClasses(c);
      log.debug("rewrote " + name + " again: a class implementing a method its loops call has loaded");
    } catch (Throwable e) {
      log.debugOnce("reanalysis " + name, "could not rewrite " + name + " again: " + e);
    }
  }
}
