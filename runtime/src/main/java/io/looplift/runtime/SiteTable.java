package io.looplift.runtime;

import io.looplift.ir.LoopSite;
import io.looplift.ir.RegionSite;
import io.looplift.ir.SiteRegistry;
import io.looplift.profiler.Profiler;
import io.looplift.profiler.SiteInfo;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * Every loop site the rewriter has seen, under one id: the profiler's, which rewritten code passes to the
 * bridge and the report shows. At {@code log=info} each site is also one stderr line. Thread-safe: classes
 * load concurrently while loops run.
 */
final class SiteTable implements SiteRegistry {
  /** A registered site and its id. */
  record Entry(LoopSite site, int id) {
    /** {@code com.acme.Foo.bar:42}, the way users find a loop in their source. */
    String where() {
      return site.className() + "." + site.method() + (site.line() >= 0 ? ":" + site.line() : "");
    }
  }

  private final Profiler profiler;
  private final Log log;
  private final Object lock = new Object();
  // Copy-on-grow under lock and re-published with a volatile write after every addition, so that
  // get() takes no lock on the hot path and sees every entry whose id it was given.
  private volatile Entry[] entries = new Entry[64];
  // A class rewritten again (retransformed, or defined by a second loader) reports the same loops once.
  private final Map<LoopSite, Integer> ids = new HashMap<>(); // guarded by lock
  // Rejected for want of an implementation of an abstract method, until their class is rewritten again;
  // renewing: those of classes being rewritten again now, which a loop registered anew at their place replaces.
  private final List<Entry> awaiting = new ArrayList<>(); // guarded by lock
  private final List<Entry> renewing = new ArrayList<>(); // guarded by lock
  private final AtomicInteger regions = new AtomicInteger();
  // Accepted sites whose loops are to stay as they were wherever their class is rewritten from now on.
  private final Set<Integer> keptOriginal = ConcurrentHashMap.newKeySet();

  SiteTable(Profiler profiler, Log log) {
    this.profiler = profiler;
    this.log = log;
  }

  @Override
  public int register(LoopSite site) {
    Entry e;
    synchronized (lock) {
      Integer known = ids.get(site);
      if (known != null) {
        // Still as it was: it goes on waiting, and no other loop replaces it.
        if (!renewing.isEmpty()) stillWaiting(known);
        return known;
      }
      String status = site.accepted() ? "offloaded" : "rejected";
      int id = profiler.siteAdded(new SiteInfo(site.className(), site.method(), site.descriptor(),
          site.line(), site.kind(), status, site.reason(), Math.max(1, site.depth()), site.parallel()));
      e = new Entry(site, id);
      Entry[] a = entries;
      if (id >= a.length) a = Arrays.copyOf(a, Math.max(a.length * 2, id + 1));
      a[id] = e;
      entries = a;
      ids.put(site, id);
      if (!renewing.isEmpty()) supersede(site);
      if (site.awaitsImplementation()) awaiting.add(e);
    }
    if (site.accepted()) {
      log.info("offloaded " + e.where() + " " + site.kind()
          + (site.depth() > 1 ? " of depth " + site.depth() + ", parallel over " + String.join(", ", site.parallel()) : ""));
    } else {
      log.info("rejected " + e.where() + " (" + site.reason() + ")");
    }
    return e.id();
  }

  @Override
  public void rewritingAgain(String className) {
    synchronized (lock) {
      for (var it = awaiting.iterator(); it.hasNext(); ) {
        Entry e = it.next();
        if (!e.site().className().equals(className)) continue;
        it.remove();
        renewing.add(e);
      }
    }
  }

  @Override
  public void implementationLoaded(String className) {
    restate(className, "a class implementing a method its class's loops wait for has loaded since: its class is"
        + " rewritten again at the first moment none of its methods runs");
  }

  @Override
  public void notRewrittenAgain(String className, String why) {
    restate(className, "a class implementing a method its class's loops waited for loaded later, but its class was"
        + " not rewritten again: " + why);
  }

  /**
   * Says {@code what} in the report of each loop of class {@code className} waiting for an implementation (of
   * its own method or another's: the loops of a class may wait for several). They go on waiting: another
   * implementation loading later may still have their class rewritten again, and them replaced.
   */
  private void restate(String className, String what) {
    synchronized (lock) {
      for (Entry e : awaiting) {
        if (!e.site().className().equals(className)) continue;
        String reason = e.site().reason();
        profiler.siteDiscarded(e.id(), reason.substring(0, reason.length() - LoopSite.AWAITS_IMPLEMENTATION.length())
            + " that no loaded class implemented when its class loaded (" + what + ")");
      }
    }
  }

  /**
   * Takes out of the report a site that waited for an implementation at {@code site}'s place (method and
   * line; the first, when a class without line numbers has several there): its class was rewritten again
   * once one loaded, and {@code site} is what the loop is now (accepted, or rejected for another reason).
   */
  private void supersede(LoopSite site) {
    Entry old = takeRenewing(e -> e.site().samePlace(site));
    if (old == null) return;
    ids.remove(old.site());
    profiler.siteSuperseded(old.id());
  }

  /** Puts the site {@code id}, registered again unchanged, back among those waiting for an implementation. */
  private void stillWaiting(int id) {
    Entry e = takeRenewing(x -> x.id() == id);
    if (e == null) return;
    awaiting.add(e);
    profiler.siteDiscarded(id, e.site().reason()); // as it was, whatever implementationLoaded said
  }

  /** Removes from {@link #renewing} and returns the first entry {@code match} accepts; null when none does. */
  private Entry takeRenewing(Predicate<Entry> match) {
    for (var it = renewing.iterator(); it.hasNext(); ) {
      Entry e = it.next();
      if (match.test(e)) {
        it.remove();
        return e;
      }
    }
    return null;
  }

  /**
   * Turns accepted site {@code id} into a rejected one: its class could not be written, so no rewritten
   * code will ever submit it. The dispatcher then treats the id as unknown, the report shows the site as
   * rejected with {@code reason}, and the same loop seen again later (in another loader, say) registers
   * afresh.
   */
  @Override
  public void discard(int id, String reason) {
    Entry now;
    synchronized (lock) {
      Entry[] a = entries;
      if (id < 0 || id >= a.length || a[id] == null || !a[id].site().accepted()) return;
      LoopSite s = a[id].site();
      now = new Entry(new LoopSite(s.className(), s.method(), s.descriptor(), s.line(), s.kind(), null, null, reason), id);
      a[id] = now;
      ids.remove(s);
      entries = a;
      profiler.siteDiscarded(id, reason);
    }
    log.info("rejected " + now.where() + " (" + reason + ")");
  }

  @Override
  public boolean keepsOriginal(int siteId) {
    return keptOriginal.contains(siteId);
  }

  /**
   * From now on, rewriting a class leaves the loop of accepted site {@code id} as it was; false when the
   * site is not an accepted one or already kept so.
   */
  boolean keepOriginal(int id) {
    Entry e = get(id);
    return e != null && e.site().accepted() && keptOriginal.add(id);
  }

  /** Undoes {@link #keepOriginal}: rewriting its class takes the loop of site {@code id} again. */
  void takeAgain(int id) {
    keptOriginal.remove(id);
  }

  @Override
  public int registerRegion(RegionSite region) {
    int id = regions.getAndIncrement();
    log.info("region " + region.className() + "." + region.method() + (region.line() >= 0 ? ":" + region.line() : "")
        + ": " + region.siteIds().size() + " loops, " + region.temporaries() + " temporary arrays not allocated");
    return id;
  }

  /** The site registered as {@code id}, or null for an id this table never returned. */
  Entry get(int id) {
    Entry[] a = entries;
    return id >= 0 && id < a.length ? a[id] : null;
  }
}
