package io.looplift.agent.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Looks at a process before the attach API touches it. The attach API of Java 17 starts a JVM's attach
 * listener by sending it SIGQUIT without checking who receives it, and SIGQUIT ends a process that does
 * not handle it; when the process is gone, the API fails with a bare {@code IOException: No such process}.
 * So the CLI asks the kernel first and says what is wrong in one line instead.
 */
final class AttachTarget {
  /** SIGQUIT's bit in the signal masks of {@code /proc/PID/status}: bit {@code signal - 1}. */
  private static final long SIGQUIT_BIT = 1L << (3 - 1);

  private AttachTarget() {}

  /** Why JVM {@code pid} cannot be attached to, or empty when nothing speaks against trying. */
  static Optional<String> problem(String pid) {
    return problem(pid, Path.of("/proc"));
  }

  /**
   * As {@link #problem(String)}, reading process status under {@code proc}; where that has no entry for a
   * running process (a system without {@code /proc}), only whether the process exists is checked.
   */
  static Optional<String> problem(String pid, Path proc) {
    if (!ProcessHandle.of(Long.parseLong(pid)).map(ProcessHandle::isAlive).orElse(false)) return Optional.of(gone(pid));
    List<String> status;
    try {
      status = Files.readAllLines(proc.resolve(pid).resolve("status"), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return Optional.empty(); // nothing more to learn here; the attach API will say what it finds
    }
    String state = field(status, "State");
    // A zombie has exited; only its parent has yet to collect its exit status.
    if (state != null && (state.startsWith("Z") || state.startsWith("X"))) return Optional.of(gone(pid));
    String caught = field(status, "SigCgt");
    // A mask this code cannot read tells nothing: then the attach API decides.
    boolean handlesQuit = caught == null || !caught.matches("[0-9a-fA-F]{1,16}")
        || (Long.parseUnsignedLong(caught, 16) & SIGQUIT_BIT) != 0;
    if (!handlesQuit) {
      return Optional.of("process " + pid + " is not a JVM that can be attached to: it does not handle SIGQUIT"
          + " (a JVM does, unless it is still starting or runs with -Xrs), and the attach signal would end it; "
          + Cli.LIST_HINT);
    }
    return Optional.empty();
  }

  /** The message for a PID that has no running process. */
  static String gone(String pid) {
    return "JVM " + pid + " is not running (no live process has that PID); " + Cli.LIST_HINT;
  }

  private static String field(List<String> status, String name) {
    for (String line : status) {
      if (line.startsWith(name + ":")) return line.substring(name.length() + 1).trim();
    }
    return null;
  }
}
