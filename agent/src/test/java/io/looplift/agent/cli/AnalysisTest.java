package io.looplift.agent.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.analyzer.ClassRewriter;
import io.looplift.ir.LoopSite;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AnalysisTest {
  private static final String SOURCE = String.join("\n",
      "package demo;",
      "public class Scale {",
      "  public static void scale(float[] a, float[] b) {",
      "    for (int i = 0; i < a.length; i++) {",
      "      b[i] = a[i] * 2f;",
      "    }",
      "  }",
      "  public static void print(int[] a) {",
      "    for (int i = 0; i < a.length; i++) {",
      "      System.out.println(a[i]);",
      "    }",
      "  }",
      "  static class Inner { int x; }",
      "}");

  @TempDir Path dir;
  private Path classes;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @BeforeEach
  void compile() throws Exception {
    Path src = dir.resolve("src/demo/Scale.java");
    Files.createDirectories(src.getParent());
    Files.writeString(src, SOURCE);
    classes = Files.createDirectories(dir.resolve("classes"));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    assertNotNull(javac, "tests need a JDK");
    assertEquals(0, javac.run(null, null, null, "-g", "-d", classes.toString(), src.toString()));
  }

  private int analyze(Analysis.Analyzer analyzer, Path target, Path... classpath) throws UsageException {
    return new Analysis(analyzer, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8)).run(target, List.of(classpath));
  }

  /** Reports one accepted and one rejected loop per class, named after the bytes' length. */
  private static List<LoopSite> fake(byte[] classfile, ClassLoader loader) {
    assertNotNull(loader);
    String cls = "C" + classfile.length;
    return List.of(new LoopSite(cls, "m", "()V", 4, "map", null, null, null),
        new LoopSite(cls, "n", "(I)V", -1, "loop", null, null, "unknown call java.io.PrintStream.println"));
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void directoryTreeEveryClassOneLinePerLoopAndCounts() throws Exception {
    List<Integer> sizes = new ArrayList<>();
    int status = analyze((bytes, loader) -> {
      sizes.add(bytes.length);
      return fake(bytes, loader);
    }, classes);
    assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
    String[] lines = out().split("\n");
    assertEquals(5, lines.length, out());
    assertEquals(2, sizes.size(), "Scale and Scale$Inner");
    int size = (int) Files.size(classes.resolve("demo/Scale.class"));
    assertTrue(out().contains("offloaded-candidate  C" + size + ".m()V:4  map\n"), out());
    assertTrue(out().contains("rejected             C" + size + ".n(I)V  loop  unknown call java.io.PrintStream.println\n"),
        out());
    assertEquals("2 classes, 4 loops: 2 offloaded-candidate, 2 rejected", lines[4]);
  }

  @Test
  void jarLikeDirectory() throws Exception {
    Path jar = dir.resolve("app.jar");
    try (JarOutputStream j = new JarOutputStream(Files.newOutputStream(jar))) {
      for (String name : List.of("demo/Scale.class", "demo/Scale$Inner.class")) {
        j.putNextEntry(new JarEntry(name));
        j.write(Files.readAllBytes(classes.resolve(name)));
        j.closeEntry();
      }
      j.putNextEntry(new JarEntry("META-INF/versions/17/demo/Scale.class"));
      j.write(Files.readAllBytes(classes.resolve("demo/Scale.class")));
      j.closeEntry();
    }
    assertEquals(0, analyze(AnalysisTest::fake, jar));
    assertTrue(out().endsWith("2 classes, 4 loops: 2 offloaded-candidate, 2 rejected\n"), out());
  }

  @Test
  void aFailingClassIsNamedAndCounted() throws Exception {
    long inner = Files.size(classes.resolve("demo/Scale$Inner.class"));
    int status = analyze((bytes, loader) -> {
      if (bytes.length == inner) throw new IllegalStateException("boom");
      return fake(bytes, loader);
    }, classes);
    assertEquals(1, status);
    String e = err.toString(StandardCharsets.UTF_8);
    assertTrue(e.contains("looplift: cannot analyze demo/Scale$Inner.class: java.lang.IllegalStateException: boom"), e);
    assertTrue(out().endsWith("1 classes, 2 loops: 1 offloaded-candidate, 1 rejected; 1 classes could not be analyzed\n"));
  }

  @Test
  void notAJarIsAUsageError() throws Exception {
    Path text = Files.writeString(dir.resolve("notes.txt"), "hello");
    UsageException e = assertThrows(UsageException.class,
        () -> analyze(AnalysisTest::fake, text));
    assertTrue(e.getMessage().endsWith("is neither a directory nor a jar"), e.getMessage());
  }

  /** A loop calling a method of a class in another directory: inlined only when that directory is given too. */
  @Test
  void theClassesALoopCallsAreReadFromTheClassPathGivenAfterTheTarget() throws Exception {
    Path lib = compileTo("lib", "vec/Vec.java", String.join("\n",
        "package vec;",
        "public class Vec {",
        "  public final double[] data;",
        "  public Vec(double[] d) { data = d; }",
        "  public double get(int i) { return data[i]; }",
        "}"));
    Path app = compileTo("app", "use/Use.java", String.join("\n",
        "package use;",
        "public class Use {",
        "  public static void twice(vec.Vec v, double[] out) {",
        "    for (int i = 0; i < out.length; i++) out[i] = v.get(i) * 2;",
        "  }",
        "}"), lib);
    Cli cli = new Cli(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
        (pid, arg) -> { }, ClassRewriter::analyze);
    assertEquals(0, cli.run("analyze", app.toString()), err.toString(StandardCharsets.UTF_8));
    assertTrue(out().contains("rejected             use.Use.twice(Lvec/Vec;[D)V:4  loop  calls vec.Vec.get"), out());
    out.reset();
    assertEquals(0, cli.run("analyze", app.toString(), lib.toString()), err.toString(StandardCharsets.UTF_8));
    assertTrue(out().contains("offloaded-candidate  use.Use.twice(Lvec/Vec;[D)V:4  map"), out());
    UsageException e = assertThrows(UsageException.class, () -> analyze(AnalysisTest::fake, app, dir.resolve("nothing")));
    assertTrue(e.getMessage().startsWith("no such file or directory"), e.getMessage());
  }

  /** Compiles {@code source} (a path under the package root) into directory {@code name}, against {@code classpath}. */
  private Path compileTo(String name, String file, String source, Path... classpath) throws Exception {
    Path src = dir.resolve(name + "-src").resolve(file);
    Files.createDirectories(src.getParent());
    Files.writeString(src, source);
    Path target = Files.createDirectories(dir.resolve(name));
    List<String> args = new ArrayList<>(List.of("-g", "-d", target.toString()));
    for (Path p : classpath) args.addAll(List.of("-cp", p.toString()));
    args.add(src.toString());
    assertEquals(0, ToolProvider.getSystemJavaCompiler().run(null, null, null, args.toArray(String[]::new)));
    return target;
  }

  /** The real analyzer through the CLI. */
  @Test
  void realAnalyzerOnACompiledClass() throws Exception {
    int status = new Cli(new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), (pid, arg) -> { }, ClassRewriter::analyze)
        .run("analyze", classes.toString());
    assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
    assertTrue(out().contains("offloaded-candidate  demo.Scale.scale([F[F)V:4  map"), out());
    assertTrue(out().contains("rejected             demo.Scale.print([I)V:9  "), out());
    assertTrue(out().endsWith("2 classes, 2 loops: 1 offloaded-candidate, 1 rejected\n"), out());
  }
}
