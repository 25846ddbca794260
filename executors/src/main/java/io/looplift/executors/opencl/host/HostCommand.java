package io.looplift.executors.opencl.host;

import io.looplift.ir.LoopTemplate;
import io.looplift.progen.opencl.OpenClGenerator;
import io.looplift.tracecache.ProgramCache;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How the OpenCL host process starts: the program's own {@code java}, a class path made of wherever this
 * JVM loads LoopLift's executor classes and JOCL from (the extracted {@code looplift-impl.jar} under the
 * agent; the modules' class directories and the JOCL jar in a unit test), and a small client-only JVM.
 *
 * <p>The JVM starts under {@code /bin/sh} for two things Java cannot do itself. The terminal's SIGINT and
 * SIGHUP reach the whole process group; the host ignores them, so that it ends only when the program's JVM
 * closes it or exits, and a program that handles Ctrl-C and carries on keeps its device. And its replies
 * go to file descriptor 3 while its stdout joins its stderr: a driver or JOCL's native logger may print to
 * stdout, which must neither corrupt the protocol nor reach anything but the log.
 *
 * @param java the {@code java} launcher
 * @param classPath the host's class path
 * @param mainClass the host's main class: {@link HostMain}, or a stand-in in tests
 */
record HostCommand(Path java, List<Path> classPath, String mainClass) {
  /** Where the host writes its replies: the descriptor {@link #SHELL} moves the reply pipe to. */
  static final String REPLY_PIPE = "/dev/fd/3";
  /** Ignores SIGINT and SIGHUP (kept ignored by the JVM), moves the reply pipe to fd 3 and stdout to stderr. */
  private static final String SHELL = "trap '' INT HUP; exec \"$0\" \"$@\" 3>&1 1>&2";
  /**
   * A small JVM: the arrays live in shared memory, not on its heap; C1 starts fastest; no perf-data file.
   */
  private static final List<String> JVM_OPTIONS = List.of("-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
      "-XX:-UsePerfData");
  /** Variables that make a JVM load agents or another class path. */
  private static final Set<String> SCRUBBED = Set.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS", "CLASSPATH");

  /** The command for {@link HostMain}, with the class path {@code loader} implies. */
  static HostCommand forHost(ClassLoader loader) throws IOException {
    return of(loader, HostMain.class.getName());
  }

  /**
   * The command for {@code mainClass} with the class path {@code loader} implies.
   *
   * @throws IOException when a class the host needs cannot be found as a file (say, in a nested jar)
   */
  static HostCommand of(ClassLoader loader, String mainClass) throws IOException {
    Set<Path> roots = new LinkedHashSet<>();
    for (String anchor : List.of(mainClass, HostMain.class.getName(), LoopTemplate.class.getName(),
        OpenClGenerator.class.getName(), ProgramCache.class.getName(), "org.jocl.CL")) {
      roots.add(root(loader, anchor));
    }
    return new HostCommand(Path.of(System.getProperty("java.home"), "bin", "java"), List.copyOf(roots), mainClass);
  }

  /**
   * The class-path entry {@code loader} loads {@code className} from, found from the class file's URL, so
   * that nothing is loaded or initialized here (least of all JOCL).
   */
  static Path root(ClassLoader loader, String className) throws IOException {
    String resource = className.replace('.', '/') + ".class";
    URL url = loader.getResource(resource);
    if (url == null) throw new IOException("cannot find " + className + " on LoopLift's class path");
    try {
      String s = url.toString();
      if (url.getProtocol().equals("jar") && s.indexOf("!/") == s.lastIndexOf("!/")) {
        return Path.of(new URI(s.substring("jar:".length(), s.indexOf("!/"))));
      }
      if (url.getProtocol().equals("file")) {
        Path file = Path.of(url.toURI());
        for (int depth = resource.split("/").length; depth > 0; depth--) file = file.getParent();
        return file;
      }
    } catch (URISyntaxException | IllegalArgumentException e) {
      throw new IOException("cannot use " + url + " on a class path: " + e.getMessage(), e);
    }
    throw new IOException("cannot start a JVM with " + className + " from " + url);
  }

  /** The host's command line, as {@link ProcessBuilder} takes it. */
  List<String> argv() {
    List<String> argv = new ArrayList<>(List.of("/bin/sh", "-c", SHELL, java.toString()));
    argv.addAll(JVM_OPTIONS);
    argv.add("-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"));
    argv.add("-cp");
    argv.add(String.join(File.pathSeparator, classPath.stream().map(Path::toString).toList()));
    argv.add(mainClass);
    argv.add(REPLY_PIPE);
    return argv;
  }

  /** A process builder for the host: pipes on all three standard streams, the environment {@link #scrub}bed. */
  ProcessBuilder processBuilder() {
    ProcessBuilder pb = new ProcessBuilder(argv());
    scrub(pb.environment());
    return pb;
  }

  /**
   * Removes what would make the host JVM load agents (LoopLift's own among them, which would start a host of
   * its own) or another class path, and LoopLift's options.
   */
  static void scrub(Map<String, String> env) {
    env.keySet().removeIf(k -> SCRUBBED.contains(k) || k.startsWith("LOOPLIFT_"));
  }

  @Override
  public String toString() {
    return String.join(" ", argv());
  }
}
