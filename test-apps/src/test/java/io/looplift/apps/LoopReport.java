package io.looplift.apps;

import io.looplift.apps.ProgramCatalog.Expectation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The {@code loops} of the agent's JSON exit report, checked against the contract as they are read. */
final class LoopReport {
  private static final Set<String> KINDS = Set.of("map", "reduce", "scan", "argmax", "argmin", "nest", "loop");
  private static final Set<String> STATUSES = Set.of("offloaded", "rejected");

  /** One entry of {@code loops}; {@code selection} is its selection object, null when it has none. */
  record Loop(String className, String method, String descriptor, long line, String kind, String status,
      String reason, String executor, long offloadedRuns, long fallbackRuns, Map<?, ?> selection) {
    @Override
    public String toString() {
      return className + "." + method + descriptor + ":" + line + " " + kind + " " + status
          + (reason == null ? "" : " (" + reason + ")") + " executor=" + executor
          + " runs=" + offloadedRuns + "/" + fallbackRuns;
    }
  }

  /** One entry of {@code kernels}: its id, how often it ran, and the bytes it moved to and from a device. */
  record Kernel(String id, long launches, long transferBytes) {}

  private final List<Loop> loops;
  private final List<?> devices;
  private final Map<?, ?> traceCache;
  private final List<Kernel> kernels;
  private final List<Integer> kernelSizes;
  private final Map<?, ?> transform;

  private LoopReport(List<Loop> loops, List<?> devices, Map<?, ?> traceCache, List<Kernel> kernels,
      List<Integer> kernelSizes, Map<?, ?> transform) {
    this.loops = loops;
    this.devices = devices;
    this.traceCache = traceCache;
    this.kernels = kernels;
    this.kernelSizes = kernelSizes;
    this.transform = transform;
  }

  /** Reads a report; fails with a message naming the file if it is missing or breaks the format. */
  static LoopReport read(Path file) throws IOException {
    if (!Files.isRegularFile(file)) throw new AssertionError("the agent wrote no report at " + file);
    String text = Files.readString(file, StandardCharsets.UTF_8);
    Object root = Json.parse(text);
    Map<?, ?> top = asMap(root, "report");
    Map<?, ?> traceCache = asMap(top.get("traceCache"), "traceCache");
    if (!(top.get("kernels") instanceof List<?> kernels)) throw new AssertionError("report has no kernels array");
    if (!(top.get("loops") instanceof List<?> entries)) throw new AssertionError("report has no loops array");
    List<Loop> loops = new ArrayList<>();
    for (Object e : entries) loops.add(loop(asMap(e, "loop")));
    List<Kernel> kernelList = new ArrayList<>();
    List<Integer> kernelSizes = new ArrayList<>();
    for (Object k : kernels) {
      Map<?, ?> kernel = asMap(k, "kernel");
      if (!(kernel.get("loops") instanceof List<?> served)) throw new AssertionError("kernel without loops: " + k);
      kernelSizes.add(served.size());
      kernelList.add(new Kernel(String.valueOf(kernel.get("id")), number(kernel, "launches"),
          number(kernel, "transferBytes")));
    }
    return new LoopReport(List.copyOf(loops), top.get("devices") instanceof List<?> d ? d : List.of(), traceCache,
        List.copyOf(kernelList), List.copyOf(kernelSizes), asMap(top.get("transform"), "transform"));
  }

  /** How many class files the transformer analyzed at load only in part, on an earlier run's record. */
  long rememberedClasses() {
    return number(asMap(transform.get("remembered"), "transform.remembered"), "classes");
  }

  /** A counter of the report's {@code traceCache} object. */
  long traceCache(String counter) {
    return number(traceCache, counter);
  }

  /** The report's kernels. */
  List<Kernel> kernels() {
    return kernels;
  }

  /** For each kernel of the report, how many distinct loop sites it served. */
  List<Integer> kernelSizes() {
    return kernelSizes;
  }

  List<Loop> loops() {
    return loops;
  }

  /** The OpenCL devices the agent found (empty when it found none or did not look). */
  List<?> devices() {
    return devices;
  }

  /** The loops whose class and method the expectation names. */
  List<Loop> loopsOf(Expectation e) {
    return loops.stream().filter(l -> e.matches(l.className(), l.method())).toList();
  }

  /**
   * Returns what is wrong with the report for {@code e}, or null when it holds. {@code executor}, when not
   * null, is the executor every offloaded loop must name.
   */
  String check(Expectation e, String executor) {
    List<Loop> mine = loopsOf(e);
    if (mine.isEmpty()) return e + ": no loop of this method in the report";
    switch (e.outcome()) {
      case OFFLOADED -> {
        boolean ok = mine.stream().anyMatch(l -> l.status().equals("offloaded") && l.kind().equals(e.kind())
            && l.offloadedRuns() > 0 && l.executor() != null && (executor == null || executor.equals(l.executor())));
        return ok ? null : e + (executor == null ? "" : " on " + executor) + ": got " + mine;
      }
      case REJECTED -> {
        boolean ok = mine.stream().allMatch(l -> l.status().equals("rejected") && l.offloadedRuns() == 0);
        return ok ? null : e + ": got " + mine;
      }
      case FALLBACK -> {
        boolean ok = mine.stream().allMatch(l -> l.offloadedRuns() == 0)
            && mine.stream().anyMatch(l -> l.fallbackRuns() > 0);
        return ok ? null : e + ": got " + mine;
      }
      case NOT_OFFLOADED -> {
        boolean ok = mine.stream().allMatch(l -> l.offloadedRuns() == 0);
        return ok ? null : e + ": got " + mine;
      }
      default -> throw new IllegalStateException(e.outcome().name());
    }
  }

  private static Loop loop(Map<?, ?> m) {
    String cls = text(m, "class", false);
    String status = text(m, "status", false);
    String kind = text(m, "kind", false);
    String reason = text(m, "reason", true);
    if (!STATUSES.contains(status)) throw new AssertionError("bad status in " + m);
    if (!KINDS.contains(kind)) throw new AssertionError("bad kind in " + m);
    if (cls.contains("/")) throw new AssertionError("class must be the binary name with dots: " + m);
    if (status.equals("rejected") && (reason == null || reason.isBlank())) throw new AssertionError("rejected without a reason: " + m);
    if (status.equals("offloaded") && reason != null) throw new AssertionError("offloaded with a reason: " + m);
    // Every run a test reads a report of is one LoopLift must get through without a fault of its own.
    String internalError = text(m, "internalError", true);
    if (internalError != null) throw new AssertionError("LoopLift faulted at a loop: " + internalError + " in " + m);
    Map<?, ?> runs = asMap(m.get("runs"), "runs");
    return new Loop(cls, text(m, "method", false), text(m, "descriptor", false), number(m, "line"), kind, status,
        reason, text(m, "executor", true), number(runs, "offloaded"), number(runs, "fallback"),
        m.get("selection") == null ? null : asMap(m.get("selection"), "selection"));
  }

  private static Map<?, ?> asMap(Object o, String what) {
    if (o instanceof Map<?, ?> map) return map;
    throw new AssertionError(what + " is not a JSON object: " + o);
  }

  private static String text(Map<?, ?> m, String key, boolean nullable) {
    if (!m.containsKey(key)) throw new AssertionError("no '" + key + "' in " + m);
    Object v = m.get(key);
    if (v == null && nullable) return null;
    if (v instanceof String s) return s;
    throw new AssertionError("'" + key + "' is not a string in " + m);
  }

  private static long number(Map<?, ?> m, String key) {
    if (m.get(key) instanceof Long v) return v;
    throw new AssertionError("'" + key + "' is not an integer in " + m);
  }
}
