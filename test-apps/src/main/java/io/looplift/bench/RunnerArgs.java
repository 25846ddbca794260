package io.looplift.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of {@link OverheadRunner}. The agent jar and the extra agent options may also come from
 * the system properties {@code bench.agent.jar} and {@code bench.agent.options} (not {@code looplift.*}:
 * the agent would read those as its own options).
 *
 * @param agentJar the agent jar, as an absolute path
 * @param agentOptions agent options appended after {@code min.length=0} (a later duplicate key wins); may be empty
 * @param include the benchmarks to run, a JMH regular expression
 * @param sizes the {@code size} parameter values, or empty for the benchmark's own
 * @param agentOnly true to skip the runs without the agent
 * @param defaults run the agent with its default options rather than {@code min.length=0}, to measure loops
 *     it recognizes but does not offload
 * @param forks forks per benchmark, size and mode, plain and agent in turn, or -1 for the benchmarks' own
 * @param warmups warm-up iterations per fork, or -1 for the benchmark's own
 * @param iterations measured iterations per fork, or -1 for the benchmark's own
 */
record RunnerArgs(Path agentJar, String agentOptions, String include, List<String> sizes, boolean agentOnly,
    boolean defaults, int forks, int warmups, int iterations) {
  static final String USAGE = "usage: OverheadRunner [--include REGEX] [--sizes N,N,...] [--options K=V,...]"
      + " [--agent-only] [--defaults] [--forks N] [--warmups N] [--iterations N] AGENT_JAR";

  /** Parses {@code args}; throws {@link IllegalArgumentException} with the usage on any mistake. */
  static RunnerArgs parse(String[] args) {
    String jar = System.getProperty("bench.agent.jar");
    String options = System.getProperty("bench.agent.options", "");
    String include = DispatchOverheadBench.class.getName();
    List<String> sizes = List.of();
    boolean agentOnly = false;
    boolean defaults = false;
    int forks = -1;
    int warmups = -1;
    int iterations = -1;
    List<String> rest = new ArrayList<>(List.of(args));
    while (!rest.isEmpty()) {
      String a = rest.remove(0);
      switch (a) {
        case "--include" -> include = value(a, rest);
        case "--sizes" -> sizes = List.of(value(a, rest).split(","));
        case "--options" -> options = value(a, rest);
        case "--agent-only" -> agentOnly = true;
        case "--defaults" -> defaults = true;
        case "--forks" -> forks = count(a, rest, 1);
        case "--warmups" -> warmups = count(a, rest, 0);
        case "--iterations" -> iterations = count(a, rest, 1);
        default -> {
          if (a.startsWith("-")) throw new IllegalArgumentException("unknown option " + a + "\n" + USAGE);
          jar = a;
        }
      }
    }
    if (jar == null) throw new IllegalArgumentException("no agent jar given\n" + USAGE);
    Path path = Path.of(jar).toAbsolutePath().normalize();
    if (!Files.isRegularFile(path)) throw new IllegalArgumentException("no agent jar at " + path + "\n" + USAGE);
    return new RunnerArgs(path, options, include, sizes, agentOnly, defaults, forks, warmups, iterations);
  }

  /** The {@code -javaagent} flag of the agent runs. */
  String javaagent() {
    String options = defaults ? agentOptions : "min.length=0" + (agentOptions.isEmpty() ? "" : "," + agentOptions);
    return "-javaagent:" + agentJar + (options.isEmpty() ? "" : "=" + options);
  }

  /** The count after {@code option}, at least {@code least}. */
  private static int count(String option, List<String> rest, int least) {
    String v = value(option, rest);
    try {
      int n = Integer.parseInt(v);
      if (n >= least) return n;
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(option + " needs a whole number of at least " + least + ", not " + v + "\n" + USAGE);
  }

  private static String value(String option, List<String> rest) {
    if (rest.isEmpty()) throw new IllegalArgumentException(option + " needs a value\n" + USAGE);
    return rest.remove(0);
  }
}
