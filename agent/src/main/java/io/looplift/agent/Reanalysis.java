package io.looplift.agent;

import io.looplift.analyzer.Implementors;
import io.looplift.ir.SiteRegistry;
import io.looplift.runtime.Log;
import java.util.List;

/**
 * Rewrites a class again once an implementation of an abstract method its loops call has loaded: the
 * analyzer rejected those loops for want of one ({@link Implementors}) and now inlines it, under a guard.
 * The {@link Retransformer} does it. Thread-safe; never throws.
 */
final class Reanalysis {
  private final Implementors implementors;
  private final Retransformer retransformer;
  private final SiteRegistry sites;
  private final Log log;

  Reanalysis(Implementors implementors, Retransformer retransformer, SiteRegistry sites, Log log) {
    this.implementors = implementors;
    this.retransformer = retransformer;
    this.sites = sites;
    this.log = log;
  }

  /** Learns from a class about to be defined by {@code loader}; schedules the classes it completes. */
  void classLoading(byte[] classfile, ClassLoader loader) {
    List<Implementors.Caller> waiting = implementors.classLoaded(classfile, loader);
    // Shutting down when refused: the loops stay as they are.
    if (!waiting.isEmpty()) retransformer.execute(() -> waiting.forEach(this::rewriteAgain));
  }

  private void rewriteAgain(Implementors.Caller caller) {
    ClassLoader loader = caller.loader().get();
    if (loader == null) return; // unloaded with the class
    String name = caller.className().replace('/', '.');
    sites.implementationLoaded(name);
    retransformer.retransform(caller.className(), loader, () -> sites.rewritingAgain(name), why -> {
      if (why == null) {
        log.debug("rewrote " + name + " again: a class implementing a method its loops call has loaded");
      } else {
        sites.notRewrittenAgain(name, why);
        log.debug("did not rewrite " + name + " again for a class implementing a method its loops call: " + why);
      }
    });
  }
}
