package io.looplift.agent;

import io.looplift.analyzer.LoopSite;
import io.looplift.analyzer.RegionSite;
import io.looplift.analyzer.SiteRegistry;
import io.looplift.profiler.Profiler;
import io.looplift.profiler.SiteInfo;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every loop site the rewriter has seen, by id, each also reported to the profiler (and, at
 * {@code log=info}, as one stderr line). Thread-safe: classes load concurrently while loops run.
 */
final class Sites implements SiteRegistry {
  /** A registered site and the id the profiler knows it by. */
  record Entry(LoopSite site, int profilerId) {
    /** {@code com.acme.Foo.bar:42}, the way users find a loop in their source. */
    String where() {
      return site.className() + "." + site.method() + (site.line() >= 0 ? ":" + site.line() : "");
    }
  }

  private final Profiler profiler;
  private final AgentLog log;
  private final Object lock = new Object();
  // Copy-on-grow under lock and re-published with a volatile write after every addition, so that
  // get() takes no lock on the hot path and sees every entry whose id it was given.
  private volatile Entry[] entries = new Entry[64];
  private int count; // guarded by lock
  // A class rewritten again (retransformed, or defined by a second loader) reports the same loops once.
  private final Map<LoopSite, Integer> ids = new HashMap<>(); // guarded by lock
  private final List<RegionSite> regions = new ArrayList<>(); // guarded by lock

  Sites(Profiler profiler, AgentLog log) {
    this.profiler = profiler;
    this.log = log;
  }

  @Override
  public int register(LoopSite site) {
    Entry e;
    int id;
    synchronized (lock) {
      Integer known = ids.get(site);
      if (known != null) return known;
      String status = site.accepted() ? "offloaded" : "rejected";
      int profilerId = profiler.siteAdded(new SiteInfo(site.className(), site.method(), site.descriptor(),
          site.line(), site.kind(), status, site.reason()));
      e = new Entry(site, profilerId);
      Entry[] a = entries;
      id = count;
      if (id == a.length) a = Arrays.copyOf(a, a.length * 2);
      a[id] = e;
      count = id + 1;
      entries = a;
      ids.put(site, id);
    }
    if (site.accepted()) {
      log.info("offloaded " + e.where() + " " + site.kind());
    } else {
      log.info("rejected " + e.where() + " (" + site.reason() + ")");
    }
    return id;
  }

  /**
   * Turns accepted site {@code id} into a rejected one: its class could not be written, so no rewritten
   * code will ever submit it. The dispatcher then treats the id as unknown, and the same loop seen again
   * later (in another loader, say) registers afresh.
   */
  @Override
  public void discard(int id, String reason) {
    Entry old;
    Entry now;
    synchronized (lock) {
      Entry[] a = entries;
      if (id < 0 || id >= count || !a[id].site().accepted()) return;
      old = a[id];
      LoopSite s = old.site();
      // INTEGRATION POINT (profiler): the profiler cannot change a site's status yet, so the rejection is
      // added as a site of its own; with a Profiler.siteDiscarded(profilerId, reason) this becomes one call.
      int profilerId = profiler.siteAdded(new SiteInfo(s.className(), s.method(), s.descriptor(), s.line(),
          s.kind(), "rejected", reason));
      now = new Entry(new LoopSite(s.className(), s.method(), s.descriptor(), s.line(), s.kind(), null, null, reason),
          profilerId);
      a[id] = now;
      ids.remove(s);
      entries = a;
    }
    log.info("rejected " + now.where() + " (" + reason + ")");
  }

  @Override
  public int registerRegion(RegionSite region) {
    int id;
    synchronized (lock) {
      id = regions.size();
      regions.add(region);
    }
    log.info("region " + region.className() + "." + region.method() + (region.line() >= 0 ? ":" + region.line() : "")
        + ": " + region.siteIds().size() + " loops, " + region.temporaries() + " temporary arrays not allocated");
    return id;
  }

  /** The region registered as {@code id}, or null for an id this registry never returned. */
  RegionSite region(int id) {
    synchronized (lock) {
      return id >= 0 && id < regions.size() ? regions.get(id) : null;
    }
  }

  /** The site registered as {@code id}, or null for an id this registry never returned. */
  Entry get(int id) {
    Entry[] a = entries;
    return id >= 0 && id < a.length ? a[id] : null;
  }
}
