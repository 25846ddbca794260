package io.looplift.bench;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import org.openjdk.jmh.results.Result;

/**
 * The comparison of plain and agent scores (ns/op) printed by {@link OverheadRunner}: one row per
 * benchmark and size with the ratio plain/agent (above 1: the agent is faster) and the overhead per call
 * (agent - plain), then per benchmark the crossover and the overhead at the smallest size against the
 * 2 µs target.
 */
final class OverheadTable {
  /** The per-call overhead the agent is meant to stay within, in ns. */
  static final double TARGET_NS = 2000;

  /** One benchmark (short name) at one {@code size}. */
  record Key(String benchmark, int size) {}

  private final Map<Key, Result<?>> plain;
  private final Map<Key, Result<?>> agent;

  /** @param plain the scores without the agent; empty when only the agent side ran */
  OverheadTable(Map<Key, Result<?>> plain, Map<Key, Result<?>> agent) {
    this.plain = plain;
    this.agent = agent;
  }

  String render() {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "%-10s %7s %22s %22s %8s %14s%n", "benchmark", "size", "plain ns/op",
        "agent ns/op", "ratio", "overhead ns"));
    TreeSet<Key> keys = new TreeSet<>(Comparator.comparing(Key::benchmark).thenComparingInt(Key::size));
    keys.addAll(agent.keySet());
    for (Key k : keys) {
      Result<?> p = plain.get(k);
      Result<?> g = agent.get(k);
      sb.append(String.format(Locale.ROOT, "%-10s %7d %22s %22s %8s %14s%n", k.benchmark(), k.size(), score(p),
          score(g), p == null ? "-" : fmt("%.2f", p.getScore() / g.getScore()),
          p == null ? "-" : fmt("%+.0f", g.getScore() - p.getScore())));
    }
    if (!plain.isEmpty()) {
      keys.stream().map(Key::benchmark).distinct().forEach(b -> sb.append(summary(b, keys.stream()
          .filter(k -> k.benchmark().equals(b) && plain.containsKey(k)).toList())).append('\n'));
    }
    return sb.toString();
  }

  /** The crossover and the smallest size's overhead of one benchmark; {@code keys} sorted by size. */
  private String summary(String benchmark, List<Key> keys) {
    Key slowest = null;
    for (Key k : keys) {
      if (agent.get(k).getScore() > plain.get(k).getScore()) slowest = k;
    }
    String crossover;
    if (slowest == null) {
      crossover = "agent faster at every size";
    } else if (slowest == keys.get(keys.size() - 1)) {
      crossover = "agent slower at the largest size, " + slowest.size() + ": no crossover";
    } else {
      crossover = "largest size where the agent is slower: " + slowest.size() + "; faster from size "
          + keys.get(keys.indexOf(slowest) + 1).size();
    }
    Key smallest = keys.get(0);
    double overhead = agent.get(smallest).getScore() - plain.get(smallest).getScore();
    return benchmark + ": " + crossover + "; overhead per call at size " + smallest.size() + ": "
        + fmt("%.0f", overhead) + " ns (target <= " + fmt("%.0f", TARGET_NS) + " ns: "
        + (overhead <= TARGET_NS ? "met" : "missed") + ")";
  }

  /** Score and error, e.g. {@code 1234.5 ± 6.7}. */
  private static String score(Result<?> r) {
    return r == null ? "-" : fmt("%.1f", r.getScore()) + " ± " + fmt("%.1f", r.getScoreError());
  }

  private static String fmt(String format, double v) {
    return String.format(Locale.ROOT, format, v);
  }
}
