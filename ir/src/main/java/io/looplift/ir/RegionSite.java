package io.looplift.ir;

import java.util.List;

/**
 * A region the rewriter gave a fast path: consecutive map loops of one method whose temporary arrays the
 * pipeline may leave unallocated (see {@code LoopBridge.beginRegion}).
 *
 * @param className binary name with dots
 * @param method method name
 * @param descriptor method descriptor
 * @param line source line of the region's first loop, or -1 without debug information
 * @param siteIds the registered site ids of the region's loops, in program order
 * @param temporaries how many arrays the region allocates that its fast path does not
 */
public record RegionSite(String className, String method, String descriptor, int line, List<Integer> siteIds,
    int temporaries) {
  public RegionSite {
    siteIds = List.copyOf(siteIds);
  }
}
