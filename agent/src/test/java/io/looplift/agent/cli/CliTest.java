package io.looplift.agent.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CliTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private final List<String> attached = new ArrayList<>();

  private int run(Cli.Attacher attacher, String... args) {
    return new Cli(print(out), print(err), attacher, (bytes, loader) -> List.of()).run(args);
  }

  private int run(String... args) {
    return run((pid, arg) -> attached.add(pid + " " + arg), args);
  }

  private static PrintStream print(ByteArrayOutputStream bytes) {
    return new PrintStream(bytes, true, StandardCharsets.UTF_8);
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void parsesEveryCommand() throws UsageException {
    assertEquals(new Command.Detach("42"), Command.parse("detach", "42"));
    assertEquals(new Command.Report("42", null), Command.parse("report", "42"));
    assertEquals(new Command.Report("42", Path.of("r.json").toAbsolutePath()), Command.parse("report", "42", "r.json"));
    assertEquals(new Command.ListVms(), Command.parse("list"));
    assertEquals(new Command.Analyze(Path.of("app.jar"), List.of()), Command.parse("analyze", "app.jar"));
    assertEquals(new Command.Analyze(Path.of("app.jar"), List.of(Path.of("lib/a.jar"), Path.of("classes"))),
        Command.parse("analyze", "app.jar", "lib/a.jar", "classes"));
    assertEquals(new Command.Help(), Command.parse("--help"));
    assertEquals(new Command.Attach("7", Map.of()), Command.parse("attach", "7"));
  }

  @Test
  void attachOptionsAreValidatedAndPathsMadeAbsolute() throws UsageException {
    Command.Attach a = (Command.Attach) Command.parse("attach", "7", "executor=jvm,min.length=0", "report=out.json");
    Map<String, String> expected = new LinkedHashMap<>();
    expected.put("executor", "jvm");
    expected.put("min.length", "0");
    expected.put("report", Path.of("out.json").toAbsolutePath().toString());
    assertEquals(expected, a.options());
    assertEquals("action=attach,executor=jvm,min.length=0,report=" + expected.get("report"),
        Command.agentArgument("attach", a.options()));
  }

  @Test
  void badArgumentsNameTheProblem() {
    assertUsage("no command given");
    assertUsage("unknown command 'frobnicate'; accepted: attach, detach, report, list, analyze", "frobnicate");
    assertUsage("attach needs a PID", "attach");
    assertUsage("'12a' is not a PID", "detach", "12a");
    assertUsage("'-1' is not a PID", "attach", "-1");
    assertUsage("unexpected argument 'x'; expected 'detach PID'", "detach", "1", "x");
    assertUsage("missing argument; expected 'report PID [PATH]'", "report");
    assertUsage("unexpected argument 'b'; expected 'report PID [PATH]'", "report", "1", "a", "b");
    assertUsage("contains ','", "report", "1", "a,b.json");
    assertUsage("unexpected argument 'x'; expected 'list'", "list", "x");
    assertUsage("missing argument; expected 'analyze JAR|DIR [JAR|DIR...]'", "analyze");
    assertUsage("no such file or directory", "analyze", ".", "/no/such/lib.jar");
    assertUsage("unknown option 'speed'; accepted keys: include, exclude, executor", "attach", "1", "speed=fast");
    assertUsage("option 'verbose' is not key=value", "attach", "1", "verbose");
    assertUsage("option '' is not key=value", "attach", "1", "log=info,");
    assertUsage("executor", "attach", "1", "executor=gpu");
    assertUsage("no such file or directory", "analyze", "/no/such/dir");
    assertTrue(attached.isEmpty());
  }

  private void assertUsage(String message, String... args) {
    out.reset();
    err.reset();
    assertEquals(2, run(args), err());
    String e = err();
    assertTrue(e.startsWith("looplift: "), e);
    assertTrue(e.contains(message), e);
    assertTrue(e.contains(Cli.USAGE), e);
  }

  @Test
  void helpGoesToStdout() {
    assertEquals(0, run("help"));
    assertEquals(Cli.USAGE + "\n", out());
  }

  @Test
  void attachAndDetachSendTheirAction() {
    assertEquals(0, run("attach", "123", "log=info"));
    assertEquals(0, run("detach", "123"));
    assertEquals(List.of("123 action=attach,log=info", "123 action=detach"), attached);
  }

  @Test
  void attachFailureIsOneLineSayingWhatToDo() {
    int status = run((pid, arg) -> {
      throw new IllegalStateException("wrapped", new java.io.IOException("Unable to open socket file"));
    }, "attach", "99999");
    assertEquals(1, status);
    assertEquals("looplift: cannot attach to JVM 99999 (IOException: Unable to open socket file); it must be a JVM"
        + " run by the same user that allows attaching (not -XX:+DisableAttachMechanism); " + Cli.LIST_HINT + "\n",
        err());
    assertEquals("", out());
  }

  /** Every command that attaches prints the attacher's own line for a target that is gone or no JVM. */
  @Test
  void anUnattachableTargetIsOneLineAndStatusOne() {
    Cli.Attacher gone = (pid, arg) -> {
      throw new Cli.Unattachable(AttachTarget.gone(pid));
    };
    for (String[] args : new String[][] {{"attach", "42"}, {"detach", "42"}, {"report", "42"}}) {
      out.reset();
      err.reset();
      assertEquals(1, run(gone, args), String.join(" ", args));
      assertEquals("looplift: JVM 42 is not running (no live process has that PID); " + Cli.LIST_HINT + "\n", err());
      assertEquals("", out());
    }
  }

  @Test
  void reportWithoutPathPrintsTheReportAndRemovesTheFile() {
    List<Path> written = new ArrayList<>();
    int status = run((pid, arg) -> {
      assertTrue(arg.startsWith("action=report,report="), arg);
      Path p = Path.of(arg.substring("action=report,report=".length()));
      Files.writeString(p, "{\"loops\":[]}\n");
      written.add(p);
    }, "report", "5");
    assertEquals(0, status, err());
    assertEquals("{\"loops\":[]}\n", out());
    assertFalse(Files.exists(written.get(0)));
    assertFalse(Files.exists(written.get(0).getParent()));
  }

  @Test
  void reportWithPathLeavesTheFile() throws Exception {
    Path dir = Files.createTempDirectory("cli-test");
    Path report = dir.resolve("r.json");
    Files.writeString(report, "stale");
    int status = run((pid, arg) -> {
      assertEquals("action=report,report=" + report, arg);
      Files.writeString(report, "{}");
    }, "report", "5", report.toString());
    assertEquals(0, status, err());
    assertEquals("looplift: report written to " + report + "\n", out());
    assertEquals("{}", Files.readString(report));
    Files.delete(report);
    Files.delete(dir);
  }

  @Test
  void listDoesNotFail() {
    int status = run("list");
    assertEquals(0, status, err());
    assertTrue(out().startsWith("looplift: no other JVM") || out().matches("(?s)\\d+  .*"), out());
  }
}
