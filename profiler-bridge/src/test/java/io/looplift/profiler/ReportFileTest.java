package io.looplift.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportFileTest {
  @TempDir Path dir;

  @Test
  void writesTheReportAndLeavesNoTemporaryFile() throws IOException {
    Profiler p = new Profiler();
    p.siteAdded(new SiteInfo("a.B", "m", "()V", 1, "map", "offloaded", null));
    Path report = dir.resolve("report.json");
    Files.writeString(report, "old");
    p.writeReport(report);
    assertEquals(p.reportJson() + "\n", Files.readString(report, StandardCharsets.UTF_8));
    try (Stream<Path> files = Files.list(dir)) {
      assertEquals(List.of(report), files.toList());
    }
  }

  @Test
  void failureIsOneLineOnStderrNotAnException() throws IOException {
    Path report = dir.resolve("missing").resolve("report.json");
    String err = captureStderr(() -> new Profiler().writeReport(report));
    assertEquals("looplift: cannot write report to " + report + ": no such directory: "
        + dir.resolve("missing").toAbsolutePath(), err.substring(0, err.indexOf('\n')), err);
    assertEquals(1, err.lines().count(), err);
    assertFalse(Files.exists(report));

    Path isDir = Files.createDirectory(dir.resolve("taken"));
    String err2 = captureStderr(() -> new Profiler().writeReport(isDir));
    assertTrue(err2.startsWith("looplift: cannot write report to " + isDir + ": "), err2);
    try (Stream<Path> files = Files.list(dir)) {
      assertEquals(List.of(isDir), files.toList(), "no temporary file left");
    }
  }

  /** A reader polling the file while it is rewritten only ever sees complete reports. */
  @Test
  void readersNeverSeeAPartialReport() throws Exception {
    Profiler p = new Profiler();
    for (int i = 0; i < 2000; i++) {
      p.siteAdded(new SiteInfo("some.pkg.Class" + i, "method", "([D[D)V", i, "map", "offloaded", null));
    }
    Path report = dir.resolve("report.json");
    p.writeReport(report);
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread reader = new Thread(() -> {
      try {
        while (!stop.get()) {
          Json.parse(Files.readString(report));
        }
      } catch (Throwable t) {
        failure.set(t);
      }
    });
    reader.start();
    for (int i = 0; i < 200; i++) {
      p.offloaded(i, "jvm", i);
      p.writeReport(report);
    }
    stop.set(true);
    reader.join();
    if (failure.get() != null) throw new AssertionError("reader saw a broken report", failure.get());
  }

  private static String captureStderr(Runnable r) {
    PrintStream saved = System.err;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    try {
      r.run();
    } finally {
      System.setErr(saved);
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
