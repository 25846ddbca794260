package io.looplift.apps;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * HotSpot's log of C2's compilations of one method, with {@code -XX:+PrintInlining}, for the tests that read
 * what C2 compiled into a rewritten nest. C2 compiles alone ({@code -XX:-TieredCompilation}), so that every
 * inlining line is C2's, and the log goes to a file of its own, apart from the program's stdout.
 */
final class C2InliningLog {
  /** A {@code -XX:+PrintCompilation} line: the uptime, the compile id, then its flags and the method. */
  private static final Pattern COMPILATION = Pattern.compile("^\\s*\\d+\\s+\\d+\\s");
  private static final Pattern WRITER = Pattern.compile("^<writer thread='(\\d+)'/>");

  private C2InliningLog() {}

  /** The JVM options that write the log of {@code method} ({@code Class::name}) to {@code file}. */
  static List<String> options(Path file, String method) {
    return List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:-TieredCompilation", "-XX:-DisplayVMOutput",
        "-XX:+LogVMOutput", "-XX:LogFile=" + file, "-XX:+PrintCompilation", "-XX:CompileCommand=quiet",
        "-XX:CompileCommand=PrintInlining," + method);
  }

  /** The log's lines, one char per byte. */
  static List<String> read(Path file) {
    try {
      return Files.readAllLines(file, StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      throw new AssertionError("no HotSpot log " + file, e);
    }
  }

  /** Whether {@code line} says C2 compiled {@code method} as a whole method (no {@code %}: not on-stack replacement). */
  static boolean compiles(String line, String method) {
    return line.contains(method + " (") && !line.contains(" % ") && !line.contains("made not entrant");
  }

  /** Whether C2 compiled {@code method} as a whole method at all. */
  static boolean compiled(List<String> log, String method) {
    return log.stream().anyMatch(l -> compiles(l, method));
  }

  /**
   * The lines of the last whole-method compilation of {@code method}: its {@code -XX:+PrintCompilation} line and
   * the inlining lines after it, up to the next compilation's, of the thread that wrote it (HotSpot's log
   * interleaves its threads' lines, each stretch after a {@code <writer thread='N'/>} tag); empty when there is
   * none.
   */
  static List<String> lastCompilation(List<String> log, String method) {
    Map<String, List<String>> byThread = new HashMap<>();
    String writer = "";
    String lastWriter = null;
    int lastAt = -1;
    for (String l : log) {
      Matcher w = WRITER.matcher(l);
      if (w.find()) {
        writer = w.group(1);
        continue;
      }
      List<String> lines = byThread.computeIfAbsent(writer, k -> new ArrayList<>());
      if (compiles(l, method)) {
        lastWriter = writer;
        lastAt = lines.size();
      }
      lines.add(l);
    }
    if (lastWriter == null) return List.of();
    List<String> stream = byThread.get(lastWriter);
    List<String> lines = new ArrayList<>(List.of(stream.get(lastAt)));
    for (int i = lastAt + 1; i < stream.size() && !COMPILATION.matcher(stream.get(i)).find(); i++) {
      lines.add(stream.get(i));
    }
    return lines;
  }
}
