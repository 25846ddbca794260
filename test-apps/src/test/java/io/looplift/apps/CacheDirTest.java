package io.looplift.apps;

import static java.nio.file.attribute.PosixFilePermissions.fromString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cache.dir} is used only when nobody but its owner can feed it: the demo runs with
 * {@code executor=opencl} on a prepared cache directory and must print exactly what it prints without the
 * agent, whether the directory is refused or its entries are rejected and compiled again.
 */
class CacheDirTest {
  private static final String DEMO = ProgramCatalog.DEMO.mainClass();

  @TempDir Path tmp;

  /** The demo with {@code executor=opencl} on {@code cacheDir}; skips the test where no loop ran on OpenCL. */
  private ForkedJvm.Result runDemo(Path cacheDir) throws IOException {
    Path report = tmp.resolve("report.json");
    Files.deleteIfExists(report);
    ForkedJvm.Result plain = ForkedJvm.plain(DEMO);
    ForkedJvm.Result agent = ForkedJvm.run(
        List.of(ForkedJvm.agentArg("executor=opencl,min.length=0,report=" + report + ",cache.dir=" + cacheDir)), DEMO);
    assertEquals(plain.exitCode(), agent.exitCode(), agent::describe);
    assertEquals(plain.stdout(), agent.stdout(), () -> "stdout changed under the agent\n" + agent.describe());
    LoopReport r = LoopReport.read(report);
    assumeTrue(r.loops().stream().anyMatch(l -> "opencl".equals(l.executor()) && l.offloadedRuns() > 0),
        "no loop ran on OpenCL here, so no program was cached");
    return agent;
  }

  private static List<String> cacheLines(ForkedJvm.Result r) {
    return r.stderr().lines().filter(l -> l.contains("cache.dir")).toList();
  }

  private static List<Path> entries(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".bin")).sorted().toList();
    }
  }

  @Test
  void aCacheDirectoryOthersCanWriteIsRefusedOnce() throws IOException {
    Path cache = Files.createDirectory(tmp.resolve("shared"));
    Files.setPosixFilePermissions(cache, fromString("rwxrwxrwx"));
    ForkedJvm.Result agent = runDemo(cache);
    List<String> lines = cacheLines(agent);
    assertEquals(1, lines.size(), agent::describe);
    assertEquals("looplift: cache.dir " + cache + " is writable by others (rwxrwxrwx); compiled programs are not"
        + " cached on disk (cache.dir must be a directory of yours holding only files of yours, none of them"
        + " writable by others; or set cache.dir to another directory)", lines.get(0));
    try (Stream<Path> files = Files.list(cache)) {
      assertEquals(List.of(), files.toList(), "a refused directory is written to");
    }
  }

  /**
   * A run fills the cache; then one entry is altered (a bit of its binary flipped) and each other entry is
   * replaced by a copy of the first one as it was: a binary this device loads, authenticated, but planted
   * where another program belongs. The next run rejects them all, compiles those programs again and stores
   * them anew, without a word about the directory.
   */
  @Test
  void plantedAndAlteredEntriesAreRejectedAndCompiledAgain() throws IOException {
    Path cache = tmp.resolve("programs");
    runDemo(cache);
    List<Path> entries = entries(cache);
    assertTrue(entries.size() >= 2, () -> "the demo cached fewer than two programs: " + entries);

    byte[] first = Files.readAllBytes(entries.get(0));
    Map<Path, byte[]> prepared = new LinkedHashMap<>();
    byte[] altered = first.clone();
    altered[altered.length - 1] ^= 1;
    prepared.put(entries.get(0), altered);
    for (Path entry : entries.subList(1, entries.size())) prepared.put(entry, first);
    for (Map.Entry<Path, byte[]> e : prepared.entrySet()) Files.write(e.getKey(), e.getValue());

    ForkedJvm.Result second = runDemo(cache);
    assertEquals(List.of(), cacheLines(second), second::describe);
    for (Map.Entry<Path, byte[]> e : prepared.entrySet()) {
      assertTrue(Files.isRegularFile(e.getKey()), () -> e.getKey() + " was not stored again");
      assertFalse(Arrays.equals(e.getValue(), Files.readAllBytes(e.getKey())), () -> e.getKey() + " was kept as prepared");
    }
  }
}
