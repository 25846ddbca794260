package io.looplift.analyzer;

import io.looplift.ir.LoopSite;
import io.looplift.ir.RegionSite;
import io.looplift.ir.SiteRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A registry for rewriter tests: a site's id is its index in {@link #sites}, discarded sites' reasons are kept
 * by id, and the sites {@code keep} accepts are {@linkplain SiteRegistry#keepsOriginal kept as they were}.
 */
final class RecordingRegistry implements SiteRegistry {
  final List<LoopSite> sites = new ArrayList<>();
  final Map<Integer, String> discarded = new HashMap<>();
  final List<RegionSite> regions = new ArrayList<>();
  private final Predicate<LoopSite> keep;

  /** A registry that keeps no loop as it was. */
  RecordingRegistry() {
    this(site -> false);
  }

  RecordingRegistry(Predicate<LoopSite> keep) {
    this.keep = keep;
  }

  @Override
  public int register(LoopSite site) {
    sites.add(site);
    return sites.size() - 1;
  }

  @Override
  public boolean keepsOriginal(int siteId) {
    return keep.test(sites.get(siteId));
  }

  @Override
  public void discard(int siteId, String reason) {
    discarded.put(siteId, reason);
  }

  @Override
  public int registerRegion(RegionSite region) {
    regions.add(region);
    return regions.size() - 1;
  }
}
