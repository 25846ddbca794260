package io.looplift.profiler;

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
 */
public record SiteInfo(String className, String method, String descriptor, int line, String kind,
    String status, String reason) {}
