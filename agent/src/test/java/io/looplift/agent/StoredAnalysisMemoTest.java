package io.looplift.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.profiler.Profiler;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntPredicate;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoredAnalysisMemoTest {
  private static final String BUILD = "1.0 on 17, jar directory checksum 0badcafe, RewriteOptions[minLength=65536]";

  private static final IntPredicate NOTHING_RAN = site -> false;

  @TempDir Path dir;

  private static BitSet methods(int... indices) {
    BitSet b = new BitSet();
    for (int i : indices) b.set(i);
    return b;
  }

  private static long remembered(Profiler profiler) {
    String json = profiler.reportJson();
    String marker = "\"remembered\":{\"classes\":";
    int at = json.indexOf(marker) + marker.length();
    return Long.parseLong(json.substring(at, json.indexOf('}', at)));
  }

  @Test
  void aSecondRunKnowsWhatTheFirstAnalyzedAndCountsWhatItKnew() throws IOException {
    StoredAnalysisMemo first = StoredAnalysisMemo.open(dir, BUILD, new Profiler());
    assertNull(first.methodsWorthAnalyzing(7L));
    first.analyzed(7L, methods());
    first.analyzed(-3L, methods(0, 70, 1000));
    first.save(NOTHING_RAN);

    Profiler profiler = new Profiler();
    StoredAnalysisMemo second = StoredAnalysisMemo.open(dir, BUILD, profiler);
    assertEquals(methods(), second.methodsWorthAnalyzing(7L));
    assertEquals(methods(0, 70, 1000), second.methodsWorthAnalyzing(-3L));
    assertNull(second.methodsWorthAnalyzing(8L));
    assertEquals(2, remembered(profiler));

    // What the second run adds joins what it read; a third run has both.
    second.analyzed(8L, methods(2));
    second.save(NOTHING_RAN);
    StoredAnalysisMemo third = StoredAnalysisMemo.open(dir, BUILD, new Profiler());
    assertEquals(methods(2), third.methodsWorthAnalyzing(8L));
    assertEquals(methods(), third.methodsWorthAnalyzing(7L));
  }

  @Test
  void pastItsLimitAFileKeepsOnlyWhatTheLastRunUsedOrMade() throws IOException {
    StoredAnalysisMemo first = StoredAnalysisMemo.open(dir, BUILD, new Profiler());
    for (long h = 0; h < StoredAnalysisMemo.KEPT_CLASSES; h++) first.analyzed(h, methods((int) (h % 7)));
    first.save(NOTHING_RAN);
    StoredAnalysisMemo second = StoredAnalysisMemo.open(dir, BUILD, new Profiler());
    assertEquals(methods(3), second.methodsWorthAnalyzing(10L));
    second.analyzed(-1L, methods(1)); // one past the limit
    second.save(NOTHING_RAN);
    StoredAnalysisMemo third = StoredAnalysisMemo.open(dir, BUILD, new Profiler());
    assertEquals(methods(3), third.methodsWorthAnalyzing(10L));
    assertEquals(methods(1), third.methodsWorthAnalyzing(-1L));
    assertNull(third.methodsWorthAnalyzing(11L));
  }

  @Test
  void anotherBuildOrOtherOptionsKnowNothingAndReplaceTheFile() throws IOException {
    StoredAnalysisMemo old = StoredAnalysisMemo.open(dir, BUILD, new Profiler());
    old.analyzed(7L, methods(1));
    old.save(NOTHING_RAN);
    StoredAnalysisMemo rebuilt = StoredAnalysisMemo.open(dir, BUILD.replace("0badcafe", "0badcaff"), new Profiler());
    assertNull(rebuilt.methodsWorthAnalyzing(7L));
    rebuilt.analyzed(9L, methods(1));
    rebuilt.save(NOTHING_RAN);
    try (Stream<Path> files = Files.list(dir.resolve("analysis"))) {
      assertEquals(1, files.count(), "the old build's file is deleted");
    }
    assertNull(StoredAnalysisMemo.open(dir, BUILD, new Profiler()).methodsWorthAnalyzing(7L));
  }

  @Test
  void aRunThatAnalyzedNothingNewWritesNothing() throws IOException {
    StoredAnalysisMemo.open(dir.resolve("cache"), BUILD, new Profiler()).save(NOTHING_RAN);
    assertFalse(Files.exists(dir.resolve("cache")));
  }

  /** As the program cache: a cache.dir others may write is neither read nor written, nor is such a file. */
  @Test
  void whatOthersCanWriteIsNeitherReadNorWritten() throws IOException {
    StoredAnalysisMemo memo = StoredAnalysisMemo.open(dir, BUILD, new Profiler());
    memo.analyzed(7L, methods(1));
    memo.save(NOTHING_RAN);
    Path file;
    try (Stream<Path> files = Files.list(dir.resolve("analysis"))) {
      file = files.findFirst().orElseThrow();
    }
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
    assertNull(StoredAnalysisMemo.open(dir, BUILD, new Profiler()).methodsWorthAnalyzing(7L));

    Path shared = Files.createDirectory(dir.resolve("shared"));
    Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
    StoredAnalysisMemo refused = StoredAnalysisMemo.open(shared, BUILD, new Profiler());
    refused.analyzed(7L, methods(1));
    refused.save(NOTHING_RAN);
    try (Stream<Path> files = Files.list(shared)) {
      assertEquals(List.of(), files.toList());
    }
  }

  @Test
  void aDamagedFileReadsAsNothing() throws IOException {
    StoredAnalysisMemo memo = StoredAnalysisMemo.open(dir, BUILD, new Profiler());
    memo.analyzed(7L, methods(1));
    memo.analyzed(8L, methods(2));
    memo.save(NOTHING_RAN);
    Path file;
    try (Stream<Path> files = Files.list(dir.resolve("analysis"))) {
      file = files.findFirst().orElseThrow();
    }
    byte[] whole = Files.readAllBytes(file);
    for (byte[] damaged : List.of(Arrays.copyOf(whole, whole.length - 3), Arrays.copyOf(whole, whole.length + 1),
        new byte[0], "not a memo".getBytes())) {
      Files.write(file, damaged);
      assertNull(StoredAnalysisMemo.open(dir, BUILD, new Profiler()).methodsWorthAnalyzing(7L));
    }
  }

  /** The build's checksum: the same for the same entries, another for one entry changed, none for a non-zip. */
  @Test
  void aJarsDirectoryChecksumFollowsItsEntries() throws IOException {
    Path a = zip("a.jar", "x/A.class", new byte[] {1, 2, 3});
    Path same = zip("same.jar", "x/A.class", new byte[] {1, 2, 3});
    Path changed = zip("changed.jar", "x/A.class", new byte[] {1, 2, 4});
    long checksum = StoredAnalysisMemo.centralDirectoryChecksum(a);
    assertEquals(checksum, StoredAnalysisMemo.centralDirectoryChecksum(same));
    assertNotEquals(checksum, StoredAnalysisMemo.centralDirectoryChecksum(changed));
    Path text = Files.writeString(dir.resolve("not.jar"), "not a zip file, but long enough to hold an end record");
    assertThrows(IOException.class, () -> StoredAnalysisMemo.centralDirectoryChecksum(text));
  }

  private Path zip(String name, String entry, byte[] content) throws IOException {
    Path file = dir.resolve(name);
    try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(file))) {
      ZipEntry e = new ZipEntry(entry);
      e.setTime(0); // the same time in both, so that only the content tells them apart
      out.putNextEntry(e);
      out.write(content);
      out.closeEntry();
    }
    return file;
  }

  /**
   * One run of a program that loads class file 5 (methods 1, 2 and 3 worth analyzing): what the memo tells
   * the rewriter to analyze; the methods analyzed are rewritten with sites 10 + method, of which those in
   * {@code reached} run.
   */
  private BitSet run(Set<Integer> reached) throws IOException {
    StoredAnalysisMemo memo = StoredAnalysisMemo.open(dir, BUILD, new Profiler());
    BitSet analyze = memo.methodsWorthAnalyzing(5L);
    if (analyze == null) {
      analyze = methods(1, 2, 3);
      memo.analyzed(5L, analyze);
    }
    for (int m = analyze.nextSetBit(0); m >= 0; m = analyze.nextSetBit(m + 1)) memo.rewrote(5L, m, new int[] {10 + m});
    memo.save(reached::contains);
    return analyze;
  }

  @Test
  void aClassWhoseLoopsGoUnreachedTwiceRestsForSomeRunsThenIsAnalyzedAgain() throws IOException {
    assertEquals(methods(1, 2, 3), run(Set.of()));
    assertEquals(methods(1, 2, 3), run(Set.of()), "one run without reaching a loop is not enough");
    for (int k = 0; k < StoredAnalysisMemo.RESTING_RUNS; k++) {
      assertEquals(methods(), run(Set.of()), "passed over in run " + k + " of its rest");
    }
    assertEquals(methods(1, 2, 3), run(Set.of(12)), "analyzed again after its rest");
    // A loop of method 2 ran: the class starts over, two runs without any loop of it before it rests again.
    assertEquals(methods(1, 2, 3), run(Set.of()));
    assertEquals(methods(1, 2, 3), run(Set.of()));
    assertEquals(methods(), run(Set.of()));
  }

  /** A program run with one command and then another: a class one of whose loops runs keeps all of them. */
  @Test
  void oneLoopOfAClassThatRunsKeepsTheOthersAnalyzed() throws IOException {
    for (int k = 0; k < 4; k++) assertEquals(methods(1, 2, 3), run(Set.of(11)), "run " + k);
    assertEquals(methods(1, 2, 3), run(Set.of(13)));
  }

  @Test
  void aRunThatReachedWhatItRewroteChangesNothing() throws IOException {
    StoredAnalysisMemo first = StoredAnalysisMemo.open(dir, BUILD, new Profiler());
    first.analyzed(5L, methods(1));
    first.rewrote(5L, 1, new int[] {3, 4});
    first.save(site -> site == 4);
    Path file;
    try (Stream<Path> files = Files.list(dir.resolve("analysis"))) {
      file = files.findFirst().orElseThrow();
    }
    byte[] written = Files.readAllBytes(file);
    StoredAnalysisMemo second = StoredAnalysisMemo.open(dir, BUILD, new Profiler());
    assertEquals(methods(1), second.methodsWorthAnalyzing(5L));
    second.rewrote(5L, 1, new int[] {7});
    Files.delete(file);
    second.save(site -> site == 7);
    assertFalse(Files.exists(file), "nothing to write: " + written.length + " bytes stay as they were");
  }

  @Test
  void recordsSurviveTheirEncoding() throws IOException {
    Map<Long, StoredAnalysisMemo.Entry> records = Map.of(Long.MIN_VALUE, StoredAnalysisMemo.Entry.of(methods()),
        0L, new StoredAnalysisMemo.Entry(methods(0, 1), methods(1), methods(0), 3),
        Long.MAX_VALUE, StoredAnalysisMemo.Entry.of(methods(63, 64, 65_535)));
    assertEquals(records, StoredAnalysisMemo.decode(BUILD, StoredAnalysisMemo.encode(BUILD, records)));
    assertTrue(StoredAnalysisMemo.decode("another build", StoredAnalysisMemo.encode(BUILD, records)).isEmpty());
  }
}
