package io.looplift.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.Defaults;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs benchmarks with a {@code size} parameter, such as {@link DispatchOverheadBench}, in forked JVMs without
 * the agent ("plain") and with {@code -javaagent:<jar>=min.length=0} ("agent"), the forks differing only in
 * that flag, and prints a table of both scores, their ratio and the overhead per call. The forks get this
 * JVM's classpath and JVM arguments (JMH's default), so run it with the benchmark classes and JMH on the
 * classpath and no agent. See {@link RunnerArgs#USAGE} for the command line.
 *
 * <p>Plain and agent forks alternate, one of each per round and size, and a score is the mean over all of
 * its forks' iterations: on a shared machine other processes come and go over minutes, and JMH left to
 * itself would run every plain fork before every agent fork.
 */
public final class OverheadRunner {
  private OverheadRunner() {}

  public static void main(String[] args) throws RunnerException {
    RunnerArgs a;
    List<BenchmarkListEntry> selected;
    List<String> sizes;
    try {
      a = RunnerArgs.parse(args);
      selected = selected(a.include());
      sizes = a.sizes().isEmpty() ? declaredSizes(selected, a.include()) : a.sizes();
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    int rounds = a.forks() >= 1 ? a.forks()
        : selected.stream().mapToInt(e -> e.getForks().orElse(Defaults.MEASUREMENT_FORKS)).max().orElse(1);
    Map<OverheadTable.Key, List<BenchmarkResult>> plain = new LinkedHashMap<>();
    Map<OverheadTable.Key, List<BenchmarkResult>> agent = new LinkedHashMap<>();
    for (String size : sizes) {
      for (int round = 0; round < rounds; round++) {
        if (!a.agentOnly()) run(a, size, null, plain);
        run(a, size, a.javaagent(), agent);
      }
    }
    System.out.println();
    System.out.println("agent: " + a.javaagent() + "; " + rounds + " fork(s) each, plain and agent in turn");
    System.out.print(new OverheadTable(scores(plain), scores(agent)).render());
  }

  /** The benchmarks {@code include} selects; none is a mistake. */
  private static List<BenchmarkListEntry> selected(String include) {
    List<BenchmarkListEntry> found = new ArrayList<>(BenchmarkList.defaultList()
        .find(OutputFormatFactory.createFormatInstance(System.out, VerboseMode.SILENT), List.of(include), List.of()));
    if (found.isEmpty()) throw new IllegalArgumentException("no benchmark matches " + include);
    return found;
  }

  /** The values of the benchmarks' own {@code size} parameter, in their order. */
  private static List<String> declaredSizes(List<BenchmarkListEntry> selected, String include) {
    Set<String> sizes = new LinkedHashSet<>();
    for (BenchmarkListEntry e : selected) {
      String[] values = e.getParams().hasValue() ? e.getParams().get().get("size") : null;
      if (values != null) sizes.addAll(List.of(values));
    }
    if (sizes.isEmpty()) throw new IllegalArgumentException("the benchmarks " + include + " have no size parameter");
    return List.copyOf(sizes);
  }

  /**
   * Runs the selected benchmarks at {@code size} in one fork with {@code javaagent} appended to its JVM
   * arguments (none if null), adding each one's result to {@code into}.
   */
  private static void run(RunnerArgs a, String size, String javaagent,
      Map<OverheadTable.Key, List<BenchmarkResult>> into) throws RunnerException {
    ChainedOptionsBuilder options = new OptionsBuilder().include(a.include()).shouldFailOnError(true)
        .param("size", size).forks(1);
    if (a.warmups() >= 0) options.warmupIterations(a.warmups());
    if (a.iterations() >= 0) options.measurementIterations(a.iterations());
    if (javaagent != null) options.jvmArgsAppend(javaagent);
    for (RunResult r : new Runner(options.build()).run()) {
      String name = r.getParams().getBenchmark();
      OverheadTable.Key key = new OverheadTable.Key(name.substring(name.lastIndexOf('.') + 1),
          Integer.parseInt(r.getParams().getParam("size")));
      into.computeIfAbsent(key, k -> new ArrayList<>()).addAll(r.getBenchmarkResults());
    }
  }

  /** Each benchmark and size's score over all of its forks. */
  private static Map<OverheadTable.Key, Result<?>> scores(Map<OverheadTable.Key, List<BenchmarkResult>> forks) {
    Map<OverheadTable.Key, Result<?>> scores = new LinkedHashMap<>();
    forks.forEach((key, results) -> scores.put(key,
        new RunResult(results.get(0).getParams(), results).getPrimaryResult()));
    return scores;
  }
}
