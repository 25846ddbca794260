package io.looplift.agent.cli;

import io.looplift.agent.LoopLiftConfig;
import io.looplift.executors.ExecutorProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** One parsed command line of the CLI. {@link #parse} is the only way to build one from arguments. */
sealed interface Command {
  /** {@code attach PID [key=value,...]}: load the agent with {@code options}, already validated. */
  record Attach(String pid, Map<String, String> options) implements Command {}

  /** {@code detach PID}. */
  record Detach(String pid) implements Command {}

  /** {@code report PID [PATH]}: {@code path} is absolute, or null to print the report instead. */
  record Report(String pid, Path path) implements Command {}

  /** {@code list}. */
  record ListVms() implements Command {}

  /**
   * {@code analyze JAR|DIR [JAR|DIR...]}: the classes of {@code target}, with {@code classpath} the jars and
   * directories their calls may lead to (their dependencies).
   */
  record Analyze(Path target, List<Path> classpath) implements Command {}

  /** {@code help}, {@code -h}, {@code --help}. */
  record Help() implements Command {}

  /** Options whose value is a path: made absolute here, because the target JVM has its own directory. */
  Set<String> PATH_KEYS = Set.of("report", "config", "cache.dir");

  /**
   * Parses the arguments after {@code java -jar looplift-agent.jar}.
   *
   * @throws UsageException naming the offending argument and what is accepted
   */
  static Command parse(String... args) throws UsageException {
    if (args.length == 0) throw new UsageException("no command given");
    String cmd = args[0];
    List<String> rest = Arrays.asList(args).subList(1, args.length);
    switch (cmd) {
      case "attach":
        if (rest.isEmpty()) throw new UsageException("attach needs a PID");
        return new Attach(pid(rest.get(0)), options(rest.subList(1, rest.size())));
      case "detach":
        expectArgs("detach PID", rest, 1, 1);
        return new Detach(pid(rest.get(0)));
      case "report":
        expectArgs("report PID [PATH]", rest, 1, 2);
        return new Report(pid(rest.get(0)), rest.size() == 2 ? reportPath(rest.get(1)) : null);
      case "list":
        expectArgs("list", rest, 0, 0);
        return new ListVms();
      case "analyze":
        expectArgs("analyze JAR|DIR [JAR|DIR...]", rest, 1, Integer.MAX_VALUE);
        return new Analyze(Path.of(rest.get(0)), rest.subList(1, rest.size()).stream().map(Path::of).toList());
      case "help":
      case "-h":
      case "--help":
        return new Help();
      default:
        throw new UsageException("unknown command '" + cmd + "'; accepted: attach, detach, report, list, analyze");
    }
  }

  private static void expectArgs(String form, List<String> rest, int min, int max) throws UsageException {
    if (rest.size() < min) throw new UsageException("missing argument; expected '" + form + "'");
    if (rest.size() > max) {
      throw new UsageException("unexpected argument '" + rest.get(max) + "'; expected '" + form + "'");
    }
  }

  private static String pid(String s) throws UsageException {
    if (s.isEmpty() || s.length() > 18 || !s.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new UsageException("'" + s + "' is not a PID; expected a process id such as 12345 (see 'list')");
    }
    return s;
  }

  private static Path reportPath(String s) throws UsageException {
    if (s.indexOf(',') >= 0) {
      throw new UsageException("report PATH '" + s + "' contains ','; agent options are comma-separated");
    }
    return Path.of(s).toAbsolutePath();
  }

  /**
   * Parses {@code key=value,...} (one or more arguments, each possibly holding several options) and
   * validates them as the agent would, so that a mistake is reported here rather than on the target
   * JVM's stderr, where the user of the CLI would never see it.
   */
  private static Map<String, String> options(List<String> parts) throws UsageException {
    Map<String, String> options = new LinkedHashMap<>();
    for (String arg : parts) {
      for (String part : arg.split(",", -1)) {
        int eq = part.indexOf('=');
        if (eq <= 0) {
          throw new UsageException("option '" + part + "' is not key=value; accepted keys: "
              + String.join(", ", LoopLiftConfig.KEYS));
        }
        String key = part.substring(0, eq).trim();
        String value = part.substring(eq + 1).trim();
        if (!LoopLiftConfig.KEYS.contains(key)) {
          throw new UsageException("unknown option '" + key + "'; accepted keys: " + String.join(", ", LoopLiftConfig.KEYS));
        }
        if (PATH_KEYS.contains(key) && !value.isEmpty()) value = Path.of(value).toAbsolutePath().toString();
        options.put(key, value);
      }
    }
    List<String> problems = new ArrayList<>();
    Map<String, String> checked = new LinkedHashMap<>(options);
    // The file is read by the target JVM; reading it here too would only duplicate its warnings.
    checked.remove("config");
    List<String> executors = ExecutorProvider.load(Command.class.getClassLoader()).stream()
        .map(ExecutorProvider::name).toList();
    LoopLiftConfig.load(checked, Map.of(), Map.of(), executors, problems::add);
    if (!problems.isEmpty()) {
      throw new UsageException(String.join("\n", problems).replaceFirst("^looplift: ", ""));
    }
    return options;
  }

  /** The agent argument string for this command's action plus its options: {@code action=attach,k=v}. */
  static String agentArgument(String action, Map<String, String> options) {
    StringBuilder sb = new StringBuilder("action=").append(action);
    options.forEach((k, v) -> sb.append(',').append(k).append('=').append(v));
    return sb.toString();
  }
}
