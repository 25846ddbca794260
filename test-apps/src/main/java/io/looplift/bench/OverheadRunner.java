package io.looplift.bench;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs {@link DispatchOverheadBench} in forked JVMs without the agent ("plain") and with
 * {@code -javaagent:<jar>=min.length=0} ("agent"), the forks differing only in that flag, and prints a
 * table of both scores, their ratio and the overhead per call. The forks get this JVM's classpath and JVM
 * arguments (JMH's default), so run it with the benchmark classes and JMH on the classpath and no agent.
 * See {@link RunnerArgs#USAGE} for the command line.
 */
public final class OverheadRunner {
  private OverheadRunner() {}

  public static void main(String[] args) throws RunnerException {
    RunnerArgs a;
    try {
      a = RunnerArgs.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    Map<OverheadTable.Key, Result<?>> plain = a.agentOnly() ? Map.of() : run(a, null);
    Map<OverheadTable.Key, Result<?>> agent = run(a, a.javaagent());
    System.out.println();
    System.out.println("agent: " + a.javaagent());
    System.out.print(new OverheadTable(plain, agent).render());
  }

  /** Runs the selected benchmarks with {@code javaagent} appended to the fork's JVM arguments (none if null). */
  private static Map<OverheadTable.Key, Result<?>> run(RunnerArgs a, String javaagent) throws RunnerException {
    ChainedOptionsBuilder options = new OptionsBuilder().include(a.include()).shouldFailOnError(true);
    if (!a.sizes().isEmpty()) options.param("size", a.sizes().toArray(String[]::new));
    if (a.forks() >= 0) options.forks(a.forks());
    if (a.warmups() >= 0) options.warmupIterations(a.warmups());
    if (a.iterations() >= 0) options.measurementIterations(a.iterations());
    if (javaagent != null) options.jvmArgsAppend(javaagent);
    Collection<RunResult> results = new Runner(options.build()).run();
    Map<OverheadTable.Key, Result<?>> scores = new LinkedHashMap<>();
    for (RunResult r : results) {
      String name = r.getParams().getBenchmark();
      scores.put(new OverheadTable.Key(name.substring(name.lastIndexOf('.') + 1),
          Integer.parseInt(r.getParams().getParam("size"))), r.getPrimaryResult());
    }
    return scores;
  }
}
