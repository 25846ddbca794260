package io.looplift.agent.cli;

import io.looplift.ir.LoopSite;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Locale;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * {@code analyze JAR|DIR [JAR|DIR...]}: runs the loop analyzer over every class file of a jar or directory
 * tree and prints one line per loop, then a count; the other jars and directories are read for the classes
 * those loops call (the methods the analyzer inlines). Nothing is loaded or run: class files are only read.
 */
final class Analysis {
  /** The analyzer, passed in so tests can use a fake; the CLI passes {@code ClassRewriter::analyze}. */
  interface Analyzer {
    List<LoopSite> analyze(byte[] classfile, ClassLoader loader);
  }

  private final Analyzer analyzer;
  private final PrintStream out;
  private final PrintStream err;

  Analysis(Analyzer analyzer, PrintStream out, PrintStream err) {
    this.analyzer = analyzer;
    this.out = out;
    this.err = err;
  }

  /**
   * Analyzes {@code target}, reading the classes its loops call from it and from {@code classpath}, and
   * returns the exit code: 0 when every class was analyzed, 1 when some could not be (each named on
   * {@code err}) or the target could not be read.
   *
   * @throws UsageException when {@code target} or an entry of {@code classpath} is neither a directory nor a jar
   */
  int run(Path target, List<Path> classpath) throws UsageException {
    List<URL> urls = new ArrayList<>();
    for (Path p : Stream.concat(Stream.of(target), classpath.stream()).toList()) {
      if (!Files.exists(p)) throw new UsageException("no such file or directory: " + p);
      if (!Files.isDirectory(p) && !isJar(p)) throw new UsageException(p + " is neither a directory nor a jar");
      try {
        urls.add(p.toUri().toURL());
      } catch (IOException e) {
        throw new UsageException("cannot read " + p + ": " + e);
      }
    }
    boolean dir = Files.isDirectory(target);
    // Lets the analyzer read other classes (the methods it inlines) of the target and its class path; the
    // platform loader as parent keeps the CLI's own classes out of its view.
    try (URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
      return dir ? analyzeTree(target, loader) : analyzeJar(target, loader);
    } catch (IOException e) {
      err.println("looplift: cannot read " + target + ": " + e);
      return 1;
    }
  }

  private int analyzeTree(Path root, ClassLoader loader) throws IOException {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(root)) {
      files = walk.filter(p -> Files.isRegularFile(p) && isClassFile(root.relativize(p).toString()))
          .sorted().toList();
    }
    Counts counts = new Counts();
    for (Path f : files) {
      analyzeClass(root.relativize(f).toString(), Files.readAllBytes(f), loader, counts);
    }
    return counts.finish();
  }

  private int analyzeJar(Path jar, ClassLoader loader) throws IOException {
    Counts counts = new Counts();
    try (JarFile file = new JarFile(jar.toFile())) {
      List<JarEntry> entries = new ArrayList<>();
      for (Enumeration<JarEntry> e = file.entries(); e.hasMoreElements(); ) {
        JarEntry entry = e.nextElement();
        // Multi-release overlays under META-INF/versions repeat classes; the base versions are analyzed.
        if (!entry.isDirectory() && isClassFile(entry.getName()) && !entry.getName().startsWith("META-INF/")) {
          entries.add(entry);
        }
      }
      entries.sort((a, b) -> a.getName().compareTo(b.getName()));
      for (JarEntry entry : entries) {
        try (InputStream in = file.getInputStream(entry)) {
          analyzeClass(entry.getName(), in.readAllBytes(), loader, counts);
        }
      }
    }
    return counts.finish();
  }

  private void analyzeClass(String name, byte[] bytes, ClassLoader loader, Counts counts) {
    List<LoopSite> sites;
    try {
      sites = analyzer.analyze(bytes, loader);
    } catch (RuntimeException | LinkageError | StackOverflowError e) {
      err.println("looplift: cannot analyze " + name + ": " + e);
      counts.failed++;
      return;
    }
    counts.classes++;
    for (LoopSite s : sites) {
      counts.loops++;
      String where = s.className() + "." + s.method() + s.descriptor() + (s.line() >= 0 ? ":" + s.line() : "");
      if (s.accepted()) {
        counts.accepted++;
        out.println(String.format(Locale.ROOT, "%-19s  %s  %s", "offloaded-candidate", where, s.kind()));
      } else {
        out.println(String.format(Locale.ROOT, "%-19s  %s  %s  %s", "rejected", where, s.kind(), s.reason()));
      }
    }
  }

  private static boolean isClassFile(String name) {
    String base = name.substring(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
    return base.endsWith(".class") && !base.equals("module-info.class");
  }

  /** A jar by its contents (a zip file), so that {@code .war}, {@code .zip} and renamed jars work too. */
  private static boolean isJar(Path p) {
    if (!Files.isRegularFile(p)) return false;
    try (InputStream in = Files.newInputStream(p)) {
      byte[] magic = in.readNBytes(4);
      return magic.length == 4 && magic[0] == 'P' && magic[1] == 'K' && magic[2] == 3 && magic[3] == 4;
    } catch (IOException e) {
      return false;
    }
  }

  private final class Counts {
    int classes;
    int failed;
    int loops;
    int accepted;

    int finish() {
      out.println(String.format(Locale.ROOT, "%d classes, %d loops: %d offloaded-candidate, %d rejected%s",
          classes, loops, accepted, loops - accepted, failed > 0 ? "; " + failed + " classes could not be analyzed" : ""));
      return failed > 0 ? 1 : 0;
    }
  }
}
