package io.looplift.profiler;

import java.util.List;

/**
 * What the analyzer knows about one loop site, as it appears in the report.
 *
 * @param className binary name with dots
 * @param method method name
 * @param descriptor method descriptor
 * @param line source line of the loop header, or -1 without debug information
 * @param kind {@code map}, {@code reduce} or another op name ({@code loop} when rejected before its shape
 *     was known)
 * @param status {@code offloaded} or {@code rejected}
 * @param reason why the loop stays as bytecode, readable by a user; null when offloaded
 * @param depth for a loop nest ({@code kind} {@code nest}), how many loops deep it is; 1 otherwise
 * @param parallel for a loop nest, the source names of the variables of the loops whose iterations run in
 *     parallel, outermost first; empty otherwise
 */
public record SiteInfo(String className, String method, String descriptor, int line, String kind,
    String status, String reason, int depth, List<String> parallel) {
  public SiteInfo {
    parallel = List.copyOf(parallel);
  }

  /** A site that is not a nest. */
  public SiteInfo(String className, String method, String descriptor, int line, String kind, String status,
      String reason) {
    this(className, method, descriptor, line, kind, status, reason, 1, List.of());
  }
}
