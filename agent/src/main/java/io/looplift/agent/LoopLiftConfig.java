package io.looplift.agent;

import io.looplift.executors.select.ExecutorChain;
import io.looplift.runtime.Log;
import io.looplift.runtime.VerifyPolicy;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The agent's options, read once at start-up and immutable afterwards.
 *
 * <p>Each key is looked up in five places, the first that holds a valid value winning: the agent argument
 * string ({@code key=value,key=value}), the system property {@code looplift.KEY}, the environment variable
 * {@code LOOPLIFT_KEY} (upper-cased, {@code .} and {@code -} mapped to {@code _}), the properties file named
 * by {@code config}, and the default. An unknown key or a bad value never stops the program: it prints one
 * line naming the key, the value and what is accepted, and the value is ignored as if it were not set.
 */
public final class LoopLiftConfig {
  /** Whether results must be bit-exact or may differ by a few ulp (OpenCL transcendentals). */
  public enum Precision { EXACT, ULP }

  /** Whether floating-point reductions keep Java's order or may run as parallel trees. */
  public enum Reductions { ORDERED, REASSOCIATE }

  /** Every key the agent accepts. */
  public static final List<String> KEYS = List.of("include", "exclude", "executor", "min.length", "precision",
      "reductions", "verify", "verify.every", "report", "log", "config", "opencl.device", "cache.dir");

  /**
   * The default of {@code min.length}: loops shorter than this never reach the pipeline. Measured with
   * {@code test-apps/bench/dispatch-overhead.sh}: a loop costs about 1.2 µs more through the pipeline, even
   * when the selection then runs it as bytecode; at 2^16 elements that is under a fifth of the cheapest loop's
   * own time (a saxpy, 6.6 µs), below it the dispatch alone is a loss no speed-up is sure to repay. Above it,
   * {@code executor=auto} measures whether to offload (see {@link #measured()}).
   */
  public static final int DEFAULT_MIN_LENGTH = 65536;

  private final List<String> include;
  private final List<String> exclude;
  private final Pattern includePattern;
  private final Pattern excludePattern;
  private final String executor;
  private final int minLength;
  private final boolean measured;
  private final Precision precision;
  private final Reductions reductions;
  private final VerifyPolicy verify;
  private final Path report;
  private final Log.Level log;
  private final Path config;
  private final String openclDevice;
  private final Path cacheDir;

  private LoopLiftConfig(Resolver r, List<String> executors) {
    include = r.globs("include");
    exclude = r.globs("exclude");
    includePattern = include.isEmpty() ? null : globsToPattern(include);
    excludePattern = exclude.isEmpty() ? null : globsToPattern(exclude);
    List<String> accepted = new ArrayList<>();
    accepted.add(ExecutorChain.AUTO);
    accepted.addAll(executors);
    executor = r.oneOf("executor", accepted, ExecutorChain.AUTO);
    Integer explicit = r.intAtLeast("min.length", 0, null);
    measured = explicit == null && executor.equals(ExecutorChain.AUTO);
    minLength = explicit != null ? explicit : DEFAULT_MIN_LENGTH;
    precision = r.choice("precision", Precision.class, Precision.EXACT);
    reductions = r.choice("reductions", Reductions.class, Reductions.ORDERED);
    verify = new VerifyPolicy(r.choice("verify", VerifyPolicy.Mode.class, VerifyPolicy.Mode.OFF),
        r.intAtLeast("verify.every", 1, VerifyPolicy.DEFAULT_EVERY));
    report = r.path("report");
    log = r.choice("log", Log.Level.class, Log.Level.QUIET);
    config = r.configFile;
    openclDevice = r.text("opencl.device");
    cacheDir = r.path("cache.dir");
  }

  /**
   * The configuration of this JVM: agent arguments, system properties, environment and config file.
   *
   * @param executors the executor names {@code executor=} accepts besides {@code auto}
   */
  public static LoopLiftConfig load(Map<String, String> agentArgs, List<String> executors, Consumer<String> warn) {
    Map<String, String> sys = new LinkedHashMap<>();
    System.getProperties().forEach((k, v) -> sys.put(String.valueOf(k), String.valueOf(v)));
    return load(agentArgs, sys, System.getenv(), executors, warn);
  }

  /**
   * The configuration from explicit sources (tests pass maps instead of the real environment).
   *
   * @param agentArgs parsed agent arguments ({@link #parseArgs}); highest precedence
   * @param systemProperties all system properties; only {@code looplift.*} ones are read
   * @param env the environment; only {@code LOOPLIFT_*} variables are read
   * @param executors the executor names {@code executor=} accepts besides {@code auto}
   * @param warn receives each complete warning line (starting {@code looplift: })
   */
  public static LoopLiftConfig load(Map<String, String> agentArgs, Map<String, String> systemProperties,
      Map<String, String> env, List<String> executors, Consumer<String> warn) {
    return new LoopLiftConfig(new Resolver(agentArgs, systemProperties, env, warn), executors);
  }

  /** The defaults, as if no option were set anywhere. */
  public static LoopLiftConfig defaults() {
    return load(Map.of(), Map.of(), Map.of(), List.of(), w -> {});
  }

  /**
   * Splits an agent argument string {@code key=value,key=value} into an ordered map (a later duplicate
   * wins). Keys and values are trimmed; a part without {@code =} is reported to {@code warn} and skipped.
   */
  public static Map<String, String> parseArgs(String args, Consumer<String> warn) {
    Map<String, String> map = new LinkedHashMap<>();
    if (args == null || args.isBlank()) return map;
    for (String part : args.split(",")) {
      if (part.isBlank()) continue;
      int eq = part.indexOf('=');
      if (eq <= 0) {
        warn.accept("looplift: ignoring '" + part.trim() + "' in the agent arguments; expected key=value");
        continue;
      }
      map.put(part.substring(0, eq).trim(), part.substring(eq + 1).trim());
    }
    return map;
  }

  /** The environment variable that holds {@code key}: {@code min.length} is {@code LOOPLIFT_MIN_LENGTH}. */
  public static String envName(String key) {
    return "LOOPLIFT_" + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
  }

  /**
   * True when classes named {@code className} (binary name with dots) may be rewritten: it matches an
   * {@code include} glob (or there are none) and no {@code exclude} glob.
   */
  public boolean accepts(String className) {
    if (includePattern != null && !includePattern.matcher(className).matches()) return false;
    return excludePattern == null || !excludePattern.matcher(className).matches();
  }

  public List<String> include() { return include; }
  public List<String> exclude() { return exclude; }
  /** {@code auto} or the name of an executor provider. */
  public String executor() { return executor; }
  /** Loops with fewer iterations (or, in a nest, less work) run as bytecode without asking the pipeline. */
  public int minLength() { return minLength; }
  /**
   * True with {@code executor=auto} and no {@code min.length}: whether a loop at or above the default length
   * runs as bytecode is decided by measuring it against the executors. An explicit {@code min.length} offloads
   * every loop at or above it.
   */
  public boolean measured() { return measured; }
  public Precision precision() { return precision; }
  public Reductions reductions() { return reductions; }
  /** Which launches are checked against the reference executor: {@code verify} and {@code verify.every}. */
  public VerifyPolicy verify() { return verify; }
  /** The report written at exit, or null for none. */
  public Path report() { return report; }
  public Log.Level log() { return log; }
  /** The properties file that was read, or null. */
  public Path config() { return config; }
  /** The OpenCL device: an index or a substring of its name; null for the inventory's choice. */
  public String openclDevice() { return openclDevice; }
  /** The program cache directory, or null for the default. */
  public Path cacheDir() { return cacheDir; }

  /** True at {@code log=info} and {@code log=debug}. */
  public boolean info() { return log != Log.Level.QUIET; }

  /** True at {@code log=debug}. */
  public boolean debug() { return log == Log.Level.DEBUG; }

  @Override
  public String toString() {
    return "include=" + String.join(";", include) + ", exclude=" + String.join(";", exclude)
        + ", executor=" + executor + ", min.length=" + minLength + (measured ? " (measured)" : "")
        + ", precision=" + lower(precision) + ", reductions=" + lower(reductions) + ", verify=" + lower(verify.mode())
        + ", verify.every=" + verify.every() + ", report=" + report
        + ", log=" + lower(log) + ", config=" + config + ", opencl.device=" + openclDevice
        + ", cache.dir=" + cacheDir;
  }

  /** One regular expression matching any of {@code globs}; {@code *} matches any characters. */
  static Pattern globsToPattern(List<String> globs) {
    return Pattern.compile(globs.stream()
        .map(g -> Arrays.stream(g.split("\\*", -1)).map(Pattern::quote).collect(Collectors.joining(".*")))
        .collect(Collectors.joining("|")));
  }

  private static String lower(Enum<?> e) { return e.name().toLowerCase(Locale.ROOT); }

  /** Looks keys up through the sources in precedence order and reports what it cannot use. */
  private static final class Resolver {
    private final List<Map<String, String>> sources = new ArrayList<>();
    private final Consumer<String> warn;
    final Path configFile;

    Resolver(Map<String, String> args, Map<String, String> sys, Map<String, String> env, Consumer<String> warn) {
      this.warn = warn;
      sources.add(known(args, k -> "in the agent arguments"));
      Map<String, String> fromSys = new LinkedHashMap<>();
      sys.forEach((k, v) -> {
        if (k.startsWith("looplift.")) fromSys.put(k.substring("looplift.".length()), v);
      });
      sources.add(known(fromSys, k -> "in system property looplift." + k));
      Map<String, String> fromEnv = new LinkedHashMap<>();
      Map<String, String> envToKey = new LinkedHashMap<>();
      for (String key : KEYS) envToKey.put(envName(key), key);
      env.forEach((k, v) -> {
        if (!k.startsWith("LOOPLIFT_")) return;
        String key = envToKey.get(k);
        if (key != null) {
          fromEnv.put(key, v);
        } else {
          warn.accept("looplift: unknown environment variable " + k + "; accepted: "
              + KEYS.stream().map(LoopLiftConfig::envName).collect(Collectors.joining(", ")) + " — ignored");
        }
      });
      sources.add(fromEnv);
      // The file is named by the higher sources only: it cannot name itself.
      configFile = path("config");
      sources.add(configFile == null ? Map.of() : known(readFile(configFile), k -> "in " + configFile));
    }

    private Map<String, String> known(Map<String, String> raw, Function<String, String> where) {
      Map<String, String> map = new LinkedHashMap<>();
      raw.forEach((k, v) -> {
        if (KEYS.contains(k)) {
          map.put(k, v);
        } else {
          warn.accept("looplift: unknown key '" + k + "' " + where.apply(k) + "; accepted: "
              + String.join(", ", KEYS) + " — ignored");
        }
      });
      return map;
    }

    private Map<String, String> readFile(Path file) {
      Map<String, String> map = new LinkedHashMap<>();
      Properties p = new Properties();
      try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        p.load(r);
      } catch (IOException | RuntimeException e) {
        warn.accept("looplift: cannot read config file '" + file + "' (" + e + ") — ignored");
        return map;
      }
      p.stringPropertyNames().stream().sorted().forEach(k -> map.put(k, p.getProperty(k).trim()));
      return map;
    }

    /**
     * The value of {@code key} from the highest source where {@code valid} accepts it, or null. Each
     * rejected value is reported with {@code accepted} and the value used instead ({@code fallback} names
     * it when nothing valid is found).
     */
    private <T> T lookup(String key, String accepted, Function<String, T> parse, T fallback) {
      List<String> bad = new ArrayList<>();
      T result = null;
      for (Map<String, String> s : sources) {
        String raw = s.get(key);
        if (raw == null) continue;
        T v = parse.apply(raw.trim());
        if (v != null) {
          result = v;
          break;
        }
        bad.add(raw);
      }
      T used = result != null ? result : fallback;
      for (String raw : bad) {
        warn.accept("looplift: bad value '" + raw + "' for " + key + "; accepted: " + accepted + " — using "
            + (used == null ? "the default" : used instanceof Enum<?> e ? lower(e) : used.toString()));
      }
      return used;
    }

    <E extends Enum<E>> E choice(String key, Class<E> type, E fallback) {
      String accepted = Arrays.stream(type.getEnumConstants()).map(LoopLiftConfig::lower)
          .collect(Collectors.joining(", "));
      return lookup(key, accepted, raw -> {
        for (E e : type.getEnumConstants()) {
          if (lower(e).equals(raw.toLowerCase(Locale.ROOT))) return e;
        }
        return null;
      }, fallback);
    }

    String oneOf(String key, List<String> accepted, String fallback) {
      return lookup(key, String.join(", ", accepted), raw -> {
        String lower = raw.toLowerCase(Locale.ROOT);
        return accepted.contains(lower) ? lower : null;
      }, fallback);
    }

    /** The value of {@code key}, or {@code fallback} (null: the key is not set, nor set well). */
    Integer intAtLeast(String key, int min, Integer fallback) {
      return lookup(key, "an integer from " + min + " to " + Integer.MAX_VALUE, raw -> {
        try {
          int v = Integer.parseInt(raw.replace("_", ""));
          return v >= min ? v : null;
        } catch (NumberFormatException e) {
          return null;
        }
      }, fallback);
    }

    String text(String key) {
      return lookup(key, "a non-empty string", raw -> raw.isEmpty() ? null : raw, null);
    }

    Path path(String key) {
      return lookup(key, "a file path", raw -> {
        if (raw.isEmpty()) return null;
        try {
          return Path.of(raw);
        } catch (RuntimeException e) {
          return null;
        }
      }, null);
    }

    List<String> globs(String key) {
      return lookup(key, "class-name globs separated by ';', such as com.acme.*", raw -> {
        List<String> list = Arrays.stream(raw.split(";")).map(String::trim).filter(g -> !g.isEmpty())
            .map(g -> g.replace('/', '.')).collect(Collectors.toList());
        return list.isEmpty() ? null : List.copyOf(list);
      }, List.of());
    }
  }
}
