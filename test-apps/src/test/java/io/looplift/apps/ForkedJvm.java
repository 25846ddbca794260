package io.looplift.apps;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Runs a program of {@code test-apps} in a fresh JVM (the same {@code java} that runs the tests), with or
 * without the agent, and captures its exit code and output. Inherited {@code LOOPLIFT_*} environment
 * variables are removed so that a developer's settings never change what the tests see.
 */
final class ForkedJvm {
  /** How long one program may run; the slowest takes a few seconds without the agent. */
  static final long TIMEOUT_SECONDS = 180;

  private static final Map<String, Result> PLAIN_RUNS = new ConcurrentHashMap<>();

  private ForkedJvm() {}

  /**
   * What a forked JVM did. Output is decoded as ISO-8859-1, one char per byte, so that comparing the
   * strings compares the bytes while a failure still shows readable text.
   */
  record Result(List<String> command, int exitCode, String stdout, String stderr) {
    String describe() {
      return "command: " + String.join(" ", command) + "\nexit code: " + exitCode + "\nstderr:\n" + tail(stderr);
    }

    private static String tail(String s) {
      return s.length() <= 4000 ? s : "..." + s.substring(s.length() - 4000);
    }
  }

  /** The agent jar the build produced; fails when it has not been built. */
  static Path agentJar() {
    Path jar = Path.of(System.getProperty("looplift.agent.jar", "../agent/target/looplift-agent.jar")).toAbsolutePath().normalize();
    if (!Files.isRegularFile(jar)) {
      throw new AssertionError("no agent jar at " + jar + ": build it first (mvn -B -DskipTests package, or mvn -B verify)");
    }
    return jar;
  }

  /** The compiled programs (the directory, not a jar, so that the isolated loader can read it too). */
  static Path appClasses() {
    Path dir = Path.of(System.getProperty("looplift.apps.classes", "target/classes")).toAbsolutePath().normalize();
    if (!Files.isDirectory(dir)) throw new AssertionError("no compiled programs at " + dir);
    return dir;
  }

  /** The {@code java} launcher of the JVM running the tests. */
  static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** {@code -javaagent:<jar>=<options>}. */
  static String agentArg(String options) {
    return "-javaagent:" + agentJar() + (options.isEmpty() ? "" : "=" + options);
  }

  /** Runs {@code mainClass} without the agent, once per test run: the programs are deterministic. */
  static Result plain(String mainClass) {
    return PLAIN_RUNS.computeIfAbsent(mainClass, c -> run(List.of(), c));
  }

  /** Runs {@code mainClass} with extra JVM options (such as {@link #agentArg}). */
  static Result run(List<String> jvmOptions, String mainClass) {
    return run(jvmOptions, mainClass, Map.of());
  }

  /** Runs {@code mainClass} with extra JVM options and environment variables. */
  static Result run(List<String> jvmOptions, String mainClass, Map<String, String> env) {
    return run(jvmOptions, mainClass, env, TIMEOUT_SECONDS);
  }

  /** Runs {@code mainClass} with extra JVM options, giving it {@code timeoutSeconds} instead of the usual limit. */
  static Result run(List<String> jvmOptions, String mainClass, long timeoutSeconds) {
    return run(jvmOptions, mainClass, Map.of(), timeoutSeconds);
  }

  /** Runs {@code mainClass} on {@code classpath} instead of the test programs' classes, with {@code jvmOptions}. */
  static Result runOn(String classpath, List<String> jvmOptions, String mainClass) {
    List<String> cmd = new ArrayList<>(List.of(java(), "-Xmx1g"));
    cmd.addAll(jvmOptions);
    cmd.addAll(List.of("-cp", classpath, mainClass));
    try (Running r = start(cmd, Map.of())) {
      return r.await(TIMEOUT_SECONDS);
    }
  }

  private static Result run(List<String> jvmOptions, String mainClass, Map<String, String> env, long timeoutSeconds) {
    try (Running r = start(List.of(), jvmOptions, mainClass, List.of(), env)) {
      return r.await(timeoutSeconds);
    }
  }

  /**
   * Starts {@code mainClass} with its {@code args} and extra JVM options, its {@code java} command behind
   * {@code wrapper} (such as {@code unshare -m ...}, or nothing), and returns without waiting.
   */
  static Running start(List<String> wrapper, List<String> jvmOptions, String mainClass, List<String> args,
      Map<String, String> env) {
    return start(wrapper, jvmOptions, List.of(appClasses()), mainClass, args, env);
  }

  /** {@link #start(List, List, String, List, Map)} on the class path {@code classPath} instead of the programs'. */
  static Running start(List<String> wrapper, List<String> jvmOptions, List<Path> classPath, String mainClass,
      List<String> args, Map<String, String> env) {
    List<String> cmd = new ArrayList<>(wrapper);
    cmd.add(java());
    cmd.add("-Xmx1g");
    cmd.addAll(jvmOptions);
    cmd.add("-cp");
    cmd.add(String.join(java.io.File.pathSeparator, classPath.stream().map(Path::toString).toList()));
    cmd.add(mainClass);
    cmd.addAll(args);
    return start(cmd, env);
  }

  /**
   * Starts {@code mainClass} without the agent and returns at once: its stdin and stdout are the returned
   * process's streams, its stderr goes to {@code stderr}. The caller ends the process.
   */
  static Process startWithPipes(String mainClass, Path stderr) throws IOException {
    List<String> cmd = new ArrayList<>(List.of(java(), "-Xmx1g", "-cp", appClasses().toString(), mainClass));
    return processBuilder(cmd, Map.of()).redirectError(stderr.toFile()).start();
  }

  /** Runs {@code java -jar <agent jar> args...}. */
  static Result agentCli(String... args) {
    List<String> cmd = new ArrayList<>(List.of(java(), "-jar", agentJar().toString()));
    cmd.addAll(List.of(args));
    try (Running r = start(cmd, Map.of())) {
      return r.await();
    }
  }

  private static Running start(List<String> cmd, Map<String, String> env) {
    Path out = null;
    Path err = null;
    try {
      out = Files.createTempFile("looplift-stdout", ".txt");
      err = Files.createTempFile("looplift-stderr", ".txt");
      ProcessBuilder pb = processBuilder(cmd, env).redirectInput(ProcessBuilder.Redirect.from(nullDevice()))
          .redirectOutput(out.toFile()).redirectError(err.toFile());
      return new Running(List.copyOf(cmd), pb.start(), out, err);
    } catch (IOException e) {
      deleteQuietly(out);
      deleteQuietly(err);
      throw new AssertionError("could not run " + String.join(" ", cmd), e);
    }
  }

  /** A forked JVM that is running; closing it kills it and what it started, if they still run. */
  static final class Running implements AutoCloseable {
    final List<String> command;
    final Process process;
    private final Path out;
    private final Path err;

    private Running(List<String> command, Process process, Path out, Path err) {
      this.command = command;
      this.process = process;
      this.out = out;
      this.err = err;
    }

    /** What it printed on stdout so far. */
    String stdoutSoFar() {
      try {
        return Files.readString(out, StandardCharsets.ISO_8859_1);
      } catch (IOException e) {
        throw new AssertionError("cannot read the stdout of " + String.join(" ", command), e);
      }
    }

    /** Waits up to {@link #TIMEOUT_SECONDS} for it to end; fails (after killing it) when it does not. */
    Result await() {
      return await(TIMEOUT_SECONDS);
    }

    /** Waits up to {@code seconds} for it to end; fails (after killing it) when it does not. */
    Result await(long seconds) {
      try {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
          kill();
          throw new AssertionError("timed out after " + seconds + " s: " + String.join(" ", command)
              + "\nstdout:\n" + stdoutSoFar() + "\nstderr:\n" + Files.readString(err, StandardCharsets.ISO_8859_1));
        }
        return new Result(command, process.exitValue(), stdoutSoFar(), Files.readString(err, StandardCharsets.ISO_8859_1));
      } catch (IOException e) {
        throw new AssertionError("cannot read the output of " + String.join(" ", command), e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted while running " + String.join(" ", command), e);
      }
    }

    /** Kills it and every process it started. */
    void kill() {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      try {
        process.waitFor(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    @Override
    public void close() {
      if (process.isAlive()) kill();
      deleteQuietly(out);
      deleteQuietly(err);
    }
  }

  /** A builder for {@code cmd} without the inherited {@code LOOPLIFT_*} variables, with {@code env} added. */
  private static ProcessBuilder processBuilder(List<String> cmd, Map<String, String> env) {
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().keySet().removeIf(k -> k.startsWith("LOOPLIFT_"));
    pb.environment().putAll(env);
    return pb;
  }

  private static java.io.File nullDevice() {
    return new java.io.File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
  }

  private static void deleteQuietly(Path p) {
    if (p == null) return;
    try {
      Files.deleteIfExists(p);
    } catch (IOException ignored) {
      // A temporary file left behind is harmless.
    }
  }
}
